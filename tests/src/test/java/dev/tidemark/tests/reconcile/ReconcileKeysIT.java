package dev.tidemark.tests.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.reconcile.ReconcileRequest;
import dev.tidemark.reconcile.ReconcileResult;
import dev.tidemark.reconcile.Reconciler;
import dev.tidemark.reconcile.Repair;
import dev.tidemark.event.TableId;
import dev.tidemark.tests.sink.TargetDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Keys that are not integers are merged in key order on both sides, which must agree on that order whatever the
 * databases' collations: text keys in mixed case, with accents and emoji (the source column has PostgreSQL's ICU
 * English collation, which sorts them unlike SQLite's and MariaDB's byte order), composite keys, and uuid keys. Also the
 * API with connections the caller owns: they are left open, with their auto-commit setting restored.
 */
class ReconcileKeysIT {
    static final List<String> CODES = List.of("a", "B", "b", "Ä", "é", "e", "Z", "z", "😀", "中", "a b", "a-b", "ab", "A", "ß", "ss");

    TargetDatabase pg;
    final List<TargetDatabase> targets = new ArrayList<>();

    @BeforeEach
    void source() throws Exception {
        pg = TargetDatabase.postgres();
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            // a locale collation on purpose: its order is not byte order
            String collation = "\"en-x-icu\"";
            try (var rs = s.executeQuery("SELECT count(*) FROM pg_collation WHERE collname = 'en-x-icu'")) {
                rs.next();
                collation = rs.getInt(1) > 0 ? collation : "\"default\"";
            }
            s.execute("CREATE TABLE codes (code text COLLATE " + collation + " PRIMARY KEY, n integer)");
            s.execute("CREATE TABLE pairs (tenant integer, code text, n integer, PRIMARY KEY (tenant, code))");
            s.execute("CREATE TABLE things (id uuid PRIMARY KEY, n integer)");
            try (PreparedStatement codes = c.prepareStatement("INSERT INTO codes VALUES (?, ?)");
                 PreparedStatement pairs = c.prepareStatement("INSERT INTO pairs VALUES (?, ?, ?)")) {
                for (int i = 0; i < CODES.size(); i++) {
                    codes.setString(1, CODES.get(i));
                    codes.setInt(2, i);
                    codes.addBatch();
                    for (int tenant = 1; tenant <= 3; tenant++) {
                        pairs.setInt(1, tenant);
                        pairs.setString(2, CODES.get(i));
                        pairs.setInt(3, i * tenant);
                        pairs.addBatch();
                    }
                }
                codes.executeBatch();
                pairs.executeBatch();
            }
            s.execute("INSERT INTO things SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(g * 7919), 12, '0'))::uuid, g FROM generate_series(1, 30) g");
        }
    }

    @AfterEach
    void drop() throws Exception {
        for (TargetDatabase t : targets) {
            t.close();
        }
        pg.close();
    }

    TargetDatabase target(TargetDatabase t) {
        targets.add(t);
        return t;
    }

    /** Copies the source tables into the target by hand. */
    void copy(TargetDatabase t) throws Exception {
        boolean maria = t.name().equals("mariadb");
        // byte-exact and without PAD SPACE: the sink refuses a key collation that would merge 'a' and 'a ' (utf8mb4_bin pads)
        String text = maria ? "VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin" : "TEXT";
        try (Connection c = t.connect(); Statement s = c.createStatement(); Connection src = pg.connect(); Statement read = src.createStatement()) {
            s.execute("CREATE TABLE codes (code " + text + " PRIMARY KEY, n INTEGER)");
            s.execute("CREATE TABLE pairs (tenant INTEGER, code " + text + ", n INTEGER, PRIMARY KEY (tenant, code))");
            s.execute("CREATE TABLE things (id " + (maria ? "CHAR(36) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin" : "TEXT") + " PRIMARY KEY, n INTEGER)");
            for (String table : List.of("codes", "pairs", "things")) {
                try (var rs = read.executeQuery("SELECT * FROM " + table)) {
                    int cols = rs.getMetaData().getColumnCount();
                    try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + table + " VALUES (" + "?, ".repeat(cols - 1) + "?)")) {
                        while (rs.next()) {
                            for (int i = 1; i <= cols; i++) {
                                ins.setString(i, rs.getString(i));
                            }
                            ins.addBatch();
                        }
                        ins.executeBatch();
                    }
                }
            }
        }
    }

    ReconcileRequest request(TargetDatabase t, String table) {
        return ReconcileRequest.of(ReconcileRequest.Endpoint.of(pg.jdbcUrl(), pg.properties()), new TableId("public", table),
                ReconcileRequest.Endpoint.of(t.jdbcUrl(), t.properties()), table).withSettle(Duration.ZERO);
    }

    void scenario(TargetDatabase t) throws Exception {
        copy(t);
        for (String table : List.of("codes", "pairs", "things")) {
            ReconcileResult r = Reconciler.reconcile(request(t, table));
            assertThat(r.equal()).as("%s equal on %s: %s", table, t.name(), r).isTrue();
            assertThat(r.method()).isEqualTo(table.equals("pairs") ? r.method() : "merged");
        }
        try (Connection c = t.connect(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM codes WHERE code = 'é'");
            s.execute("UPDATE codes SET n = 99 WHERE code = '😀'");
            s.execute("INSERT INTO codes VALUES ('zz', 1)");
            s.execute("DELETE FROM pairs WHERE tenant = 2 AND code = 'B'");
            s.execute("UPDATE pairs SET n = -1 WHERE tenant = 3 AND code = 'ß'");
            s.execute("INSERT INTO pairs VALUES (2, 'q', 0)");
            s.execute("DELETE FROM things WHERE n = 7");
        }
        ReconcileResult codes = Reconciler.reconcile(request(t, "codes"));
        assertThat(codes.missing()).containsExactly("é");
        assertThat(codes.surplus()).containsExactly("zz");
        assertThat(codes.changed()).containsExactly("😀");
        ReconcileResult pairs = Reconciler.reconcile(request(t, "pairs").withSegmentRows(4));
        assertThat(pairs.keyColumns()).containsExactly("tenant", "code");
        assertThat(pairs.missing()).containsExactly("2,B");
        assertThat(pairs.surplus()).containsExactly("2,q");
        assertThat(pairs.changed()).containsExactly("3,ß");
        ReconcileResult things = Reconciler.reconcile(request(t, "things"));
        assertThat(things.missing()).containsExactly(String.format("00000000-0000-4000-8000-%012x", 7 * 7919));
        assertThat(things.surplus()).isEmpty();

        // repairs by text, composite and uuid keys
        for (ReconcileResult r : List.of(codes, pairs, things)) {
            Repair.apply(request(t, r.targetTable()), Repair.plan(r), 0.5, false);
            assertThat(Reconciler.reconcile(request(t, r.targetTable())).equal()).as("%s after repair", r.targetTable()).isTrue();
        }
    }

    @Test
    void textCompositeAndUuidKeysAgainstSqlite() throws Exception {
        scenario(target(TargetDatabase.sqlite()));
    }

    @Test
    void textCompositeAndUuidKeysAgainstMariaDb() throws Exception {
        scenario(target(TargetDatabase.mariadb()));
    }

    @Test
    void callerOwnedConnectionsStayOpenWithTheirSettings() throws Exception {
        TargetDatabase t = target(TargetDatabase.sqlite());
        copy(t);
        try (Connection src = pg.connect(); Connection tgt = t.connect()) {
            src.setAutoCommit(true);
            tgt.setAutoCommit(true);
            ReconcileRequest request = ReconcileRequest.of(ReconcileRequest.Endpoint.of(src), new TableId("public", "pairs"),
                    ReconcileRequest.Endpoint.of(tgt), "pairs").withSettle(Duration.ZERO);
            try (Statement s = tgt.createStatement()) {
                s.execute("DELETE FROM pairs WHERE tenant = 1");
            }
            ReconcileResult r = Reconciler.reconcile(request);
            assertThat(r.missingCount()).isEqualTo(CODES.size());
            Repair.apply(request, Repair.plan(r), 0.1, false);
            assertThat(Reconciler.reconcile(request).equal()).isTrue();
            assertThat(src.isClosed()).isFalse();
            assertThat(tgt.isClosed()).isFalse();
            assertThat(src.getAutoCommit()).isTrue();
            assertThat(tgt.getAutoCommit()).isTrue();
            try (Statement s = src.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM pairs")) {
                rs.next();
                assertThat(rs.getInt(1)).as("the caller's connection still works").isEqualTo(3 * CODES.size());
            }
        }
    }
}
