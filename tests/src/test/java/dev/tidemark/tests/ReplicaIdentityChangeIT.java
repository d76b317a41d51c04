package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.reconcile.ComparisonResult;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Someone changes a captured table's REPLICA IDENTITY while capture streams. The sink applies by primary key and
 * after-image, so the target stays exact with any identity PostgreSQL accepts writes under: DEFAULT (deletes carry the
 * key only, updates no before-image; an unchanged TOASTed value arrives as Debezium's placeholder and is left as it
 * is) and USING INDEX of another unique index; under NOTHING PostgreSQL itself refuses updates and deletes of a
 * published table, so no change goes unseen.
 */
class ReplicaIdentityChangeIT {
    static final TableId T = new TableId("public", "accounts");

    @TempDir
    Path dir;

    @Test
    void theTargetStaysExactUnderEveryIdentityTheSourceAcceptsWritesUnder() throws Exception {
        try (CdcFixture f = new CdcFixture("replident", dir, List.of(T))) {
            f.sql("CREATE TABLE public.accounts (id int PRIMARY KEY, code text NOT NULL UNIQUE, balance int, doc text)",
                    "ALTER TABLE accounts ALTER COLUMN doc SET STORAGE EXTERNAL", // TOASTed out of line, uncompressed
                    "INSERT INTO accounts SELECT g, 'c' || g, g, repeat(md5(g::text), 400) FROM generate_series(1, 20) g");
            Sidecar sidecar = f.startPipeline();
            awaitEqual(f, sidecar);

            f.sql("UPDATE accounts SET id = id + 2000 WHERE id = 12", "UPDATE accounts SET balance = 7 WHERE id = 13"); // FULL
            awaitEqual(f, sidecar);

            f.sql("ALTER TABLE accounts REPLICA IDENTITY DEFAULT",
                    "UPDATE accounts SET balance = balance + 100 WHERE id <= 5", // doc unchanged: TOASTed, not in the WAL
                    "UPDATE accounts SET id = id + 1000 WHERE id = 6", // a key change
                    "DELETE FROM accounts WHERE id = 7");
            awaitEqual(f, sidecar);

            f.sql("ALTER TABLE accounts REPLICA IDENTITY USING INDEX accounts_code_key",
                    "UPDATE accounts SET balance = -1 WHERE id = 8", "UPDATE accounts SET code = 'renamed' WHERE id = 9",
                    "DELETE FROM accounts WHERE id = 10");
            awaitEqual(f, sidecar);

            f.sql("ALTER TABLE accounts REPLICA IDENTITY NOTHING");
            assertThatThrownBy(() -> f.sql("UPDATE accounts SET balance = 0 WHERE id = 11")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("cannot update table \"accounts\" because it does not have a replica identity and publishes updates");
            assertThatThrownBy(() -> f.sql("DELETE FROM accounts WHERE id = 11")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("cannot delete from table \"accounts\" because it does not have a replica identity and publishes deletes");
            f.sql("INSERT INTO accounts VALUES (500, 'c500', 5, 'inserts still work')");
            ComparisonResult r = awaitEqual(f, sidecar);
            assertThat(r.sourceRows()).isEqualTo(20 - 2 + 1);
            assertThat(sidecar.failure()).isEmpty();
        }
    }

    /** {@link CdcFixture#awaitEqual}, failing with the last comparison (which keys differ). */
    private static ComparisonResult awaitEqual(CdcFixture f, Sidecar sidecar) throws SQLException {
        try {
            return f.awaitEqual(sidecar, T, "target.db", "id");
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            try (java.sql.Connection t = java.sql.DriverManager.getConnection(f.targetUrl("target.db"))) {
                throw new AssertionError(dev.tidemark.testkit.TableComparison.compare(f.source, T, List.of("id"), t, T.table(),
                        dev.tidemark.testkit.TableComparison.QuoteStyle.DOUBLE).toString(), e);
            }
        }
    }
}
