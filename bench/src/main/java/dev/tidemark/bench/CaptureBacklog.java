package dev.tidemark.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The change backlog of {@code bench/capture.sh} (issue 13): table {@code public.t}, REPLICA IDENTITY FULL, filled by
 * one server-side procedure that commits every {@code txnRows} rows: 70 % of the changes as INSERT transactions, then
 * 20 % as UPDATE transactions of rows already inserted, then 10 % as DELETE transactions. With 500,000 changes and
 * {@code txnRows} 1,000 that is the 350 × 1,000-row INSERT, 100 × 1,000-row UPDATE and 50 × 1,000-row DELETE
 * transactions; with {@code txnRows} 1 every change is its own transaction.
 *
 * @param inserts rows inserted (a multiple of {@code txnRows})
 * @param updates rows updated
 * @param deletes rows deleted (each also gives one tombstone in Kafka)
 */
record CaptureBacklog(String name, int txnRows, long inserts, long updates, long deletes) {

    static final String TABLE = "t";

    CaptureBacklog {
        if (txnRows < 1 || inserts % txnRows != 0 || updates % txnRows != 0 || deletes % txnRows != 0 || deletes > inserts
                || updates > inserts) {
            throw new IllegalArgumentException("backlog " + name + ": inserts " + inserts + ", updates " + updates + ", deletes "
                    + deletes + " must be multiples of " + txnRows + " and not exceed the inserts");
        }
    }

    /** About {@code changes} changes in transactions of {@code txnRows} rows, split 70/20/10. */
    static CaptureBacklog of(String name, long changes, int txnRows) {
        long txns = Math.max(10, Math.round(changes / (double) txnRows));
        long ins = Math.round(txns * 0.7);
        long upd = Math.round(txns * 0.2);
        long del = txns - ins - upd;
        return new CaptureBacklog(name, txnRows, ins * txnRows, upd * txnRows, del * txnRows);
    }

    long changes() {
        return inserts + updates + deletes;
    }

    long transactions() {
        return changes() / txnRows;
    }

    /** Creates the table (REPLICA IDENTITY FULL), the publication and the loading procedure; no rows yet. */
    static void createSchema(Connection c, String publication) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS \"" + TABLE + "\"");
            s.execute("CREATE TABLE \"" + TABLE + "\" (\"id\" bigint PRIMARY KEY, \"customer_id\" int, \"amount\" numeric(12,2), "
                    + "\"status\" varchar(20), \"note\" varchar(100), \"updated_at\" timestamp(6))");
            s.execute("ALTER TABLE \"" + TABLE + "\" REPLICA IDENTITY FULL");
            s.execute("DROP PUBLICATION IF EXISTS \"" + publication + "\"");
            s.execute("CREATE PUBLICATION \"" + publication + "\" FOR TABLE \"" + TABLE + "\"");
            s.execute("""
                    CREATE OR REPLACE PROCEDURE "bench_load"(txn_rows int, ins bigint, upd bigint, del bigint) LANGUAGE plpgsql AS $$
                    DECLARE i bigint;
                    BEGIN
                      FOR i IN 0 .. ins / txn_rows - 1 LOOP
                        INSERT INTO "t" SELECT g, (g % 10000)::int, (g % 100000) / 100.0, 'new',
                               'order ' || g || ' placed through the web shop, standard delivery', localtimestamp
                          FROM generate_series(i * txn_rows + 1, (i + 1) * txn_rows) g;
                        COMMIT;
                      END LOOP;
                      FOR i IN 0 .. upd / txn_rows - 1 LOOP
                        UPDATE "t" SET "status" = 'shipped', "amount" = "amount" + 1, "updated_at" = localtimestamp
                         WHERE "id" BETWEEN i * txn_rows + 1 AND (i + 1) * txn_rows;
                        COMMIT;
                      END LOOP;
                      FOR i IN 0 .. del / txn_rows - 1 LOOP
                        DELETE FROM "t" WHERE "id" BETWEEN ins - (i + 1) * txn_rows + 1 AND ins - i * txn_rows;
                        COMMIT;
                      END LOOP;
                    END $$""");
        }
    }

    /** Writes the backlog (the connection must be in auto-commit mode: the procedure commits). */
    void load(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CALL \"bench_load\"(" + txnRows + ", " + inserts + ", " + updates + ", " + deletes + ")");
        }
    }
}
