package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.reconcile.ComparisonResult;
import dev.tidemark.reconcile.ReconcileRequest;
import dev.tidemark.reconcile.ReconcileResult;
import dev.tidemark.reconcile.Reconciler;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.testkit.TableComparison;
import dev.tidemark.tests.sink.TargetDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20's corpus of schema changes, each on a captured table of 200 rows with changes before and after the DDL,
 * through real capture (event-trigger mode) into SQLite, PostgreSQL and MariaDB targets. Every case ends one of two ways:
 * <em>followed exactly</em> — reconcile finds no difference and an independent comparison of every value of every
 * row (TableComparison) finds the target equal to the source — or <em>stopped with one line</em> naming the table,
 * the change and the recovery command, with every change before the DDL applied.
 *
 * <p>The cases that are followed share one pipeline (one table each); each case that stops has its own (a stop stops
 * capture). The outcome of each case is stated in docs/schema-changes.md.
 */
class SchemaChangeCorpusIT {
    private static final int ROWS = 200;

    /** A case that is followed: its DDL, and the source columns the target does not get (generated ones). */
    record Followed(String name, String ddl, String after, Set<String> notCarried) {
    }

    /** A case that stops capture: its DDL and the line it stops with ({@code %s} = the table). */
    record Stopped(String name, String ddl, String line) {
    }

    static final List<Followed> FOLLOWED = List.of(
            new Followed("add_nullable", "ALTER TABLE %s ADD COLUMN c int", "UPDATE %s SET c = id WHERE id %% 7 = 0; INSERT INTO %1$s (id, k, s) VALUES (20001, 1, 'new')", Set.of()),
            new Followed("add_default", "ALTER TABLE %s ADD COLUMN c int NOT NULL DEFAULT 5", "UPDATE %s SET c = -id WHERE id %% 7 = 0; INSERT INTO %1$s (id, k, s) VALUES (20001, 1, 'new')", Set.of()),
            new Followed("add_text_default", "ALTER TABLE %s ADD COLUMN c text DEFAULT 'it''s'", "UPDATE %s SET c = 'x' WHERE id %% 7 = 0; INSERT INTO %1$s (id, k, s) VALUES (20001, 1, 'new')", Set.of()),
            new Followed("add_generated", "ALTER TABLE %s ADD COLUMN g int GENERATED ALWAYS AS (k * 2) STORED", "UPDATE %s SET k = k + 1 WHERE id %% 7 = 0; INSERT INTO %1$s (id, k, s) VALUES (20001, 1, 'new')", Set.of("g")),
            new Followed("drop_column", "ALTER TABLE %s DROP COLUMN s", "UPDATE %s SET k = -k WHERE id %% 7 = 0; INSERT INTO %1$s (id, k) VALUES (20001, 1)", Set.of()),
            new Followed("rename_column", "ALTER TABLE %s RENAME COLUMN k TO k2", "UPDATE %s SET k2 = -k2 WHERE id %% 7 = 0; INSERT INTO %1$s (id, k2, s) VALUES (20001, 1, 'new')", Set.of()),
            new Followed("widen_int_bigint", "ALTER TABLE %s ALTER COLUMN k TYPE bigint", "UPDATE %s SET k = k * 100000000000 WHERE id %% 7 = 0; INSERT INTO %1$s (id, k, s) VALUES (20001, 1, 'new')", Set.of()),
            new Followed("text_to_varchar", "ALTER TABLE %s ALTER COLUMN s TYPE varchar(50)", "UPDATE %s SET s = 'v' || id WHERE id %% 7 = 0; INSERT INTO %1$s (id, k, s) VALUES (20001, 1, 'new')", Set.of()),
            new Followed("set_not_null", "ALTER TABLE %s ALTER COLUMN k SET NOT NULL", "UPDATE %s SET k = 1 WHERE id %% 7 = 0; INSERT INTO %1$s (id, k, s) VALUES (20001, 1, 'new')", Set.of()),
            new Followed("drop_not_null", "ALTER TABLE %s ALTER COLUMN s DROP NOT NULL", "UPDATE %s SET s = NULL WHERE id %% 7 = 0; INSERT INTO %1$s (id, k) VALUES (20001, 1)", Set.of()),
            new Followed("set_default", "ALTER TABLE %s ALTER COLUMN k SET DEFAULT 9", "INSERT INTO %s (id, s) VALUES (10001, 'new')", Set.of()));

    static final List<Stopped> STOPPED = List.of(
            new Stopped("add_volatile_default", "ALTER TABLE %s ADD COLUMN at timestamptz DEFAULT now()",
                    "capture stopped: table %s: column at was added with DEFAULT now(), which is not a constant: the existing rows got "
                            + "values PostgreSQL sent no row events for; nothing from that change on was sent. Copy the table again: "
                            + "`tidemark snapshot --config <path> --table %s`"),
            new Stopped("add_random_default", "ALTER TABLE %s ADD COLUMN r float8 DEFAULT random()",
                    "capture stopped: table %s: column r was added with DEFAULT random(), which is not a constant: the existing rows got "
                            + "values PostgreSQL sent no row events for; nothing from that change on was sent. Copy the table again: "
                            + "`tidemark snapshot --config <path> --table %s`"),
            new Stopped("narrow_int_smallint", "ALTER TABLE %s ALTER COLUMN k TYPE smallint",
                    "capture stopped: table %s: column k changed type from integer to smallint, which rewrote every existing row at the "
                            + "source without row events; nothing from that change on was sent. Copy the table again: "
                            + "`tidemark snapshot --config <path> --table %s`"),
            new Stopped("int_to_numeric", "ALTER TABLE %s ALTER COLUMN k TYPE numeric(12,2)",
                    "capture stopped: table %s: column k changed type from integer to numeric(12,2), which rewrote every existing row at "
                            + "the source without row events; nothing from that change on was sent. Copy the table again: "
                            + "`tidemark snapshot --config <path> --table %s`"),
            new Stopped("rename_table", "ALTER TABLE %s RENAME TO renamed_table",
                    "capture stopped: table %s was renamed to public.renamed_table at the source; capture follows tables by name, so its "
                            + "changes would no longer arrive. Nothing from that change on was sent. Put public.renamed_table in "
                            + "source.tables in place of %s, then run `tidemark snapshot --config <path> --table public.renamed_table`"));

    @TempDir
    Path dir;

    @Test
    void followedCasesIntoSqlite() throws Exception {
        followAll("sqlite", () -> {
            try {
                return TargetDatabase.sqlite();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void followedCasesIntoPostgres() throws Exception {
        followAll("postgresql", TargetDatabase::postgres);
    }

    @Test
    void followedCasesIntoMariaDb() throws Exception {
        followAll("mariadb", TargetDatabase::mariadb);
    }

    @Test
    void stoppedCasesStopWithOneLineAfterApplyingEverythingBefore() throws Exception {
        for (Stopped c : STOPPED) {
            TableId t = new TableId("public", "sc_" + c.name());
            try (TargetDatabase target = TargetDatabase.sqlite(); CdcFixture f = new CdcFixture("sc_" + c.name(), dir.resolve(c.name()), List.of(t))) {
                create(f, t);
                Sidecar s = f.start(config(f, target), true, true, new ReplayFrom.Stored());
                f.sql(String.format("UPDATE %s SET k = -k WHERE id %% 10 = 0", t));
                awaitEverythingEqual(f, target, t, s, Set.of());

                f.sql(String.format(c.ddl(), t), String.format("UPDATE %s SET s = 'after' WHERE id = 1", t.toString().replace("public.sc_rename_table", "public.renamed_table")));
                await(c.name() + ": capture stops").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .until(() -> s.failure().isPresent());
                assertThat(s.failure().get().getMessage()).as(c.name()).isEqualTo(String.format(c.line(), t, t));
                try (Connection tc = target.connect(); Statement st = tc.createStatement();
                     ResultSet rs = st.executeQuery("SELECT count(*) FROM \"sc_" + c.name() + "\" WHERE \"k\" < 0")) {
                    assertThat(rs.next() ? rs.getInt(1) : -1).as(c.name() + ": the changes before the DDL stay applied").isEqualTo(ROWS / 10);
                }
            }
        }
    }

    private void followAll(String name, Supplier<TargetDatabase> targets) throws Exception {
        List<TableId> tables = new ArrayList<>();
        for (Followed c : FOLLOWED) {
            tables.add(new TableId("public", "sc_" + c.name()));
        }
        try (TargetDatabase target = targets.get(); CdcFixture f = new CdcFixture("scf_" + name, dir, tables)) {
            for (TableId t : tables) {
                create(f, t);
            }
            Sidecar s = f.start(config(f, target), true, true, new ReplayFrom.Stored());
            for (TableId t : tables) {
                f.sql(String.format("UPDATE %s SET k = -k WHERE id %% 10 = 0", t));
            }
            for (TableId t : tables) {
                awaitEverythingEqual(f, target, t, s, Set.of());
            }
            for (int i = 0; i < FOLLOWED.size(); i++) {
                Followed c = FOLLOWED.get(i);
                TableId t = tables.get(i);
                f.sql(String.format(c.ddl(), t), String.format(c.after(), t), String.format("DELETE FROM %s WHERE id = 3", t));
            }
            for (int i = 0; i < FOLLOWED.size(); i++) {
                awaitEverythingEqual(f, target, tables.get(i), s, FOLLOWED.get(i).notCarried());
            }
            assertThat(s.failure()).as("pipeline failure").isEmpty();
            try (Connection tc = target.connect(); Statement st = tc.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*) FROM " + target.quotes().quote("sc_drop_column")
                         + " WHERE " + target.quotes().quote("s") + " = 'row 5'")) {
                assertThat(rs.next() ? rs.getInt(1) : -1).as("the dropped column keeps its values in the target (frozen)").isEqualTo(1);
            }
        }
    }

    private static PipelineConfig config(CdcFixture f, TargetDatabase target) {
        return f.configFor(f.name, target.jdbcUrl(), target.properties().getProperty("user"));
    }

    private static void create(CdcFixture f, TableId t) throws SQLException {
        f.sql(String.format("CREATE TABLE %s (id int PRIMARY KEY, k int, s text NOT NULL)", t),
                String.format("INSERT INTO %s SELECT g, g * 10, 'row ' || g FROM generate_series(1, %d) g", t, ROWS));
    }

    /**
     * Waits until reconcile finds no difference (columns the target cannot get left out) and, unless such columns
     * exist, every value of every row compares equal; fails naming the last differences.
     */
    private static void awaitEverythingEqual(CdcFixture f, TargetDatabase target, TableId t, Sidecar s, Set<String> notCarried) {
        AtomicReference<String> last = new AtomicReference<>("nothing compared yet");
        try {
            await(t + " followed exactly").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(300))
                    .failFast("pipeline failed", () -> s.failure().isPresent())
                    .until(() -> {
                        try (Connection tc = target.connect()) {
                            Properties p = new Properties();
                            p.setProperty("user", f.pg.user());
                            ReconcileResult r = Reconciler.reconcile(ReconcileRequest.of(ReconcileRequest.Endpoint.of(f.pg.jdbcUrl(f.database), p), t,
                                    ReconcileRequest.Endpoint.of(target.jdbcUrl(), target.properties()), t.table())
                                    .withExcludedColumns(notCarried).withSettle(Duration.ZERO));
                            last.set("reconcile: " + r.toComparisonResult().summary());
                            if (!r.equal()) {
                                return false;
                            }
                            if (!notCarried.isEmpty()) {
                                return true;
                            }
                            ComparisonResult every = TableComparison.compare(f.source, t, List.of("id"), tc, t.table(), target.quotes());
                            last.set("every value: " + every.summary());
                            return every.equal();
                        } catch (SQLException | RuntimeException e) {
                            last.set(e.getMessage());
                            return false;
                        }
                    });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(t + " not followed exactly: " + last.get(), e);
        }
    }
}
