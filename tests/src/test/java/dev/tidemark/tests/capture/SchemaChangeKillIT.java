package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import dev.tidemark.tests.sink.TargetDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schema changes with {@code kill -9} of {@code tidemark run} between them: each round runs one DDL followed by
 * updates and inserts, and the process is killed as soon as the target recorded that schema change (its rows after
 * the DDL mostly not yet applied); the restart re-reads the change (on every partition) and the rows. The target must
 * then equal the source in every value. A change that stops capture exits 3 with one line, and stops again with the
 * same line after a restart (nothing skipped), without a stack trace; {@code tidemark drop} then removes the event
 * triggers with the slot.
 *
 * <p>Short form (the suite): four rounds into SQLite. Long form ({@code bench/schema-changes.sh}, property
 * {@value #LONG}): every followed change of {@code SchemaChangeCorpusIT} in turn on one table, a kill after each,
 * into SQLite, PostgreSQL and MariaDB.
 */
class SchemaChangeKillIT {
    static final String LONG = "tidemark.schema-kill.long";
    static final TableId T = new TableId("public", "sk_items");

    /**
     * One round: a DDL, then changes that use it. {@code recorded}: the sink records it as a schema change (a widening,
     * NOT NULL or DEFAULT change is a note only, and the kill comes once the row inserted just before the DDL arrived).
     */
    record Round(String ddl, String after, boolean recorded) {
        Round(String ddl, String after) {
            this(ddl, after, true);
        }
    }

    static final List<Round> SHORT = List.of(
            new Round("ALTER TABLE sk_items ADD COLUMN c1 int NOT NULL DEFAULT 1", "UPDATE sk_items SET c1 = -id WHERE id % 5 = 0"),
            new Round("ALTER TABLE sk_items RENAME COLUMN k TO k1", "UPDATE sk_items SET k1 = -k1 WHERE id % 3 = 0"),
            new Round("ALTER TABLE sk_items DROP COLUMN v", "UPDATE sk_items SET k1 = k1 + 1 WHERE id % 4 = 0"),
            new Round("ALTER TABLE sk_items ADD COLUMN v text DEFAULT 'again'", "UPDATE sk_items SET v = 'set ' || id WHERE id % 6 = 0"));

    /** The followed cases of {@code SchemaChangeCorpusIT} but the generated column (not carried), one after another. */
    static final List<Round> ALL = List.of(
            new Round("ALTER TABLE sk_items ADD COLUMN c0 int", "UPDATE sk_items SET c0 = id WHERE id % 7 = 0"),
            new Round("ALTER TABLE sk_items ADD COLUMN c1 int NOT NULL DEFAULT 1", "UPDATE sk_items SET c1 = -id WHERE id % 5 = 0"),
            new Round("ALTER TABLE sk_items ADD COLUMN c2 text DEFAULT 'it''s'", "UPDATE sk_items SET c2 = 'x' WHERE id % 9 = 0"),
            new Round("ALTER TABLE sk_items RENAME COLUMN k TO k1", "UPDATE sk_items SET k1 = -k1 WHERE id % 3 = 0"),
            new Round("ALTER TABLE sk_items DROP COLUMN v", "UPDATE sk_items SET k1 = k1 + 1 WHERE id % 4 = 0"),
            new Round("ALTER TABLE sk_items ALTER COLUMN k1 TYPE bigint", "UPDATE sk_items SET k1 = k1 * 100000000000 WHERE id % 8 = 0", false),
            new Round("ALTER TABLE sk_items ALTER COLUMN s TYPE varchar(50)", "UPDATE sk_items SET s = 'v' || id WHERE id % 6 = 0", false),
            new Round("ALTER TABLE sk_items ALTER COLUMN c1 DROP NOT NULL", "UPDATE sk_items SET c1 = NULL WHERE id % 11 = 0", false),
            new Round("ALTER TABLE sk_items ALTER COLUMN s SET NOT NULL", "UPDATE sk_items SET s = 'nn ' || id WHERE id % 13 = 0", false),
            new Round("ALTER TABLE sk_items ALTER COLUMN k1 SET DEFAULT 9", "UPDATE sk_items SET k1 = 2 WHERE id % 10 = 0", false),
            new Round("ALTER TABLE sk_items ADD COLUMN v text DEFAULT 'again'", "UPDATE sk_items SET v = 'set ' || id WHERE id % 6 = 0"));

    @TempDir
    Path dir;

    @Test
    void killNineBetweenSchemaChangesLosesNothing() throws Exception {
        if (!Boolean.getBoolean(LONG)) {
            killBetween(SHORT, null, dir);
            return;
        }
        killBetween(ALL, null, dir.resolve("sqlite"));
        try (TargetDatabase pg = TargetDatabase.postgres()) {
            killBetween(ALL, pg, dir.resolve("postgresql"));
        }
        try (TargetDatabase maria = TargetDatabase.mariadb()) {
            killBetween(ALL, maria, dir.resolve("mariadb"));
        }
    }

    private static void killBetween(List<Round> rounds, TargetDatabase target, Path dir) throws Exception {
        java.nio.file.Files.createDirectories(dir);
        try (CaptureFixture f = new CaptureFixture("schema_kill", dir, List.of(T), target)) {
            f.sql("CREATE TABLE public.sk_items (id int PRIMARY KEY, k int, v text, s text DEFAULT 's')",
                    "INSERT INTO sk_items SELECT g, g * 10, 'row ' || g, 's ' || g FROM generate_series(1, 3000) g");
            Path yaml = f.writeYaml();
            Process p = f.spawn(dir.resolve("run-0.log"), "run", "--config", yaml.toString());
            awaitEqual(f, p, dir.resolve("run-0.log"));
            int recorded = 0;
            for (int i = 0; i < rounds.size(); i++) {
                recorded += rounds.get(i).recorded() ? 1 : 0;
                p = killAfterRound(f, yaml, p, rounds.get(i), recorded, i, dir);
            }
            assertThat(f.targetEqualsSource("id")).as("every value after %d kills: %s", rounds.size(), f.compareSummary("id")).isTrue();
            assertThat(schemaChanges(f)).as("each change recorded once").isEqualTo(recorded);
            p.destroy();
            p.waitFor();
            stopsTwiceThenDrops(f, yaml, dir);
        }
    }

    /**
     * Runs {@code round} after a marker row, kills {@code p} once the target recorded its schema change (or, for a
     * round the sink only notes, holds the marker), restarts and awaits equality.
     */
    private static Process killAfterRound(CaptureFixture f, Path yaml, Process p, Round round, int recorded, int i, Path dir)
            throws Exception {
        int marker = 10_000 + i;
        f.sql("INSERT INTO sk_items (id) VALUES (" + marker + ")", round.ddl(), round.after());
        await("round " + i + " (" + round.ddl() + "): the target recorded the schema change").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(20)).failFast("tidemark run exited", () -> !p.isAlive())
                .until(() -> round.recorded() ? schemaChanges(f) >= recorded : holds(f, marker));
        p.destroyForcibly(); // SIGKILL
        p.waitFor();
        Path log = dir.resolve("run-" + (i + 1) + ".log");
        Process next = f.spawn(log, "run", "--config", yaml.toString());
        awaitEqual(f, next, log);
        return next;
    }

    private static boolean holds(CaptureFixture f, int id) {
        try (Connection t = f.connectTarget(); Statement st = t.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM sk_items WHERE id = " + id)) {
            return rs.next() && rs.getInt(1) == 1;
        } catch (java.sql.SQLException e) {
            return false;
        }
    }

    private static void stopsTwiceThenDrops(CaptureFixture f, Path yaml, Path dir) throws Exception {
        f.sql("ALTER TABLE sk_items ADD COLUMN at timestamptz DEFAULT now()");
        String line = "tidemark: capture stopped: table public.sk_items: column at was added with DEFAULT now(), which is not a "
                + "constant: the existing rows got values PostgreSQL sent no row events for; nothing from that change on was sent. "
                + "Copy the table again: `tidemark snapshot --config " + yaml + " --table public.sk_items`";
        for (int run = 0; run < 2; run++) {
            Path log = dir.resolve("stop-" + run + ".log");
            Process stop = f.spawn(log, "run", "--config", yaml.toString());
            assertThat(f.awaitExit(stop, log, Duration.ofSeconds(90), () -> "no stop")).as("exit code, run " + run).isEqualTo(3);
            assertThat(CaptureFixture.errorLines(log)).as("run " + run).containsExactly(line);
            assertThat(CaptureFixture.stackTraceLines(log)).as("no stack trace, run " + run).isEmpty();
        }

        Path dropLog = dir.resolve("drop.log");
        assertThat(f.runToEnd(dropLog, "drop", "--config", yaml.toString(), "--yes")).as("tidemark drop exit code").isZero();
        assertThat(java.nio.file.Files.readString(dropLog)).contains("dropped the schema-change trigger: ",
                "event trigger \"tidemark_ddl_" + f.name + "_start\"", "event trigger \"tidemark_ddl_" + f.name + "_end\"",
                "function \"public\".\"tidemark_ddl_" + f.name + "\"()");
        try (Statement st = f.source.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_event_trigger")) {
            assertThat(rs.next() ? rs.getInt(1) : -1).as("event triggers left after tidemark drop").isZero();
        }
    }

    private static void awaitEqual(CaptureFixture f, Process p, Path log) {
        try {
            await("target equal to source").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(300))
                    .failFast("tidemark run exited", () -> !p.isAlive())
                    .until(() -> f.targetEqualsSource("id"));
        } catch (org.awaitility.core.ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
            throw new AssertionError(e.getMessage() + "\n--- last lines of the run's log ---\n" + CaptureFixture.tail(log), e);
        }
    }

    private static int schemaChanges(CaptureFixture f) {
        try (Connection t = f.connectTarget(); Statement st = t.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM tidemark_schema_changes")) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (java.sql.SQLException e) {
            return 0; // not created yet
        }
    }
}
