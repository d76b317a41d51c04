package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
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
 */
class SchemaChangeKillIT {
    static final TableId T = new TableId("public", "sk_items");
    static final List<String[]> ROUNDS = List.of(
            new String[] {"ALTER TABLE sk_items ADD COLUMN c1 int NOT NULL DEFAULT 1", "UPDATE sk_items SET c1 = -id WHERE id % 5 = 0"},
            new String[] {"ALTER TABLE sk_items RENAME COLUMN k TO k1", "UPDATE sk_items SET k1 = -k1 WHERE id % 3 = 0"},
            new String[] {"ALTER TABLE sk_items DROP COLUMN v", "UPDATE sk_items SET k1 = k1 + 1 WHERE id % 4 = 0"},
            new String[] {"ALTER TABLE sk_items ADD COLUMN v text DEFAULT 'again'", "UPDATE sk_items SET v = 'set ' || id WHERE id % 6 = 0"});

    @TempDir
    Path dir;

    @Test
    void killNineBetweenSchemaChangesLosesNothing() throws Exception {
        try (CaptureFixture f = new CaptureFixture("schema_kill", dir, List.of(T))) {
            f.sql("CREATE TABLE public.sk_items (id int PRIMARY KEY, k int, v text)",
                    "INSERT INTO sk_items SELECT g, g * 10, 'row ' || g FROM generate_series(1, 3000) g");
            Path yaml = f.writeYaml();
            Process p = f.spawn(dir.resolve("run-0.log"), "run", "--config", yaml.toString());
            awaitEqual(f, p, dir.resolve("run-0.log"));
            for (int i = 0; i < ROUNDS.size(); i++) {
                int recorded = i + 1;
                f.sql(ROUNDS.get(i)[0], ROUNDS.get(i)[1], "INSERT INTO sk_items (id) VALUES (" + (10_000 + i) + ")");
                Process running = p;
                await("round " + i + ": the target recorded the schema change").atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(20)).failFast("tidemark run exited", () -> !running.isAlive())
                        .until(() -> schemaChanges(f) >= recorded);
                p.destroyForcibly(); // SIGKILL
                p.waitFor();
                Path log = dir.resolve("run-" + (i + 1) + ".log");
                p = f.spawn(log, "run", "--config", yaml.toString());
                awaitEqual(f, p, log);
            }
            assertThat(f.targetEqualsSource("id")).as("every value after %d kills: %s", ROUNDS.size(), f.compareSummary("id")).isTrue();
            try (Connection t = DriverManager.getConnection(f.targetUrl()); Statement st = t.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*) FROM \"tidemark_schema_changes\"")) {
                assertThat(rs.next() ? rs.getInt(1) : -1).as("each change recorded once").isEqualTo(ROUNDS.size());
            }
            p.destroy();
            p.waitFor();

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
        try (Connection t = DriverManager.getConnection(f.targetUrl()); Statement st = t.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM \"tidemark_schema_changes\"")) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (java.sql.SQLException e) {
            return 0; // not created yet
        }
    }
}
