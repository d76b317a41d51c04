package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import dev.tidemark.tests.sink.TargetDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A schema change capture cannot follow stops it with one line naming {@code tidemark snapshot --config F --table T};
 * the test runs that command word for word (taken from the line), then the start the command's output names, and
 * demands that capture passes the change and the snapshot rewrites every row of the table with the source's values:
 * the target then equals the source in every value (the new column included), and later changes stream.
 */
class SchemaChangeStopRecoveryIT {
    static final TableId T = new TableId("public", "sr_items");
    private static final Pattern COMMAND = Pattern.compile("`tidemark ([^`]+)`");

    @TempDir
    Path dir;

    @Test
    void aVolatileDefaultStopIsRecoveredByTheSnapshotItsLineNames() throws Exception {
        followTheLine("schema_recover", null, "ALTER TABLE sr_items ADD COLUMN r int NOT NULL DEFAULT (random() * 1000000)::int",
                "column r was added with DEFAULT", "UPDATE sr_items SET r = -1, v = 'later' WHERE id = 3");
    }

    @Test
    void aVolatileDefaultStopIsRecoveredByTheSnapshotItsLineNamesIntoPostgres() throws Exception {
        try (TargetDatabase target = TargetDatabase.postgres()) {
            followTheLine("schema_recover_pg", target, "ALTER TABLE sr_items ADD COLUMN r int NOT NULL DEFAULT (random() * 1000000)::int",
                    "column r was added with DEFAULT", "UPDATE sr_items SET r = -1, v = 'later' WHERE id = 3");
        }
    }

    /**
     * 2,000 rows streamed; then {@code ddl} between changes stops capture (exit 3, the line containing {@code stopped});
     * the line's command and then the start the command names are run word for word; the target must then equal the
     * source in every value, {@code later} and an insert must arrive, and {@code tidemark reconcile} must find nothing.
     */
    private void followTheLine(String hint, TargetDatabase target, String ddl, String stopped, String later) throws Exception {
        try (CaptureFixture f = new CaptureFixture(hint, dir, List.of(T), target)) {
            f.sql("CREATE TABLE public.sr_items (id int PRIMARY KEY, k int, v text)",
                    "INSERT INTO sr_items SELECT g, g * 10, 'row ' || g FROM generate_series(1, 2000) g");
            Path yaml = f.writeYaml();
            Path log0 = dir.resolve("run-0.log");
            Process p = f.spawn(log0, "run", "--config", yaml.toString());
            awaitEqual(f, p, log0);

            f.sql("UPDATE sr_items SET k = -k WHERE id % 7 = 0", ddl,
                    "UPDATE sr_items SET v = 'after ' || id WHERE id % 11 = 0",
                    "INSERT INTO sr_items (id, k) VALUES (5001, 1)");
            assertThat(f.awaitExit(p, log0, Duration.ofSeconds(90), () -> "no stop")).as("exit code of the stop").isEqualTo(3);
            List<String> errors = CaptureFixture.errorLines(log0);
            assertThat(errors).as("the stop line").singleElement().asString().contains(stopped).contains("--table public.sr_items");
            String[] restart = snapshotAsTheLineSays(f, errors.get(0), yaml);

            Path log1 = dir.resolve("run-1.log");
            Process again = f.spawn(log1, restart);
            awaitEqual(f, again, log1);
            f.sql("INSERT INTO sr_items (id, k) VALUES (5002, 2)", later);
            awaitEqual(f, again, log1);
            assertThat(f.targetEqualsSource("id")).as("every value, the changed column's included: %s", f.compareSummary("id")).isTrue();
            again.destroy();
            again.waitFor();

            Path reconcileLog = dir.resolve("reconcile.log");
            assertThat(f.runToEnd(reconcileLog, "reconcile", "--config", yaml.toString(), "--settle", "1s", "--no-progress"))
                    .as(Files.readString(reconcileLog)).isZero();
        }
    }

    /**
     * Runs the {@code tidemark snapshot} command {@code line} names, word for word, on the stopped pipeline {@code yaml};
     * returns the start its output names ({@code run --config yaml}).
     */
    static String[] snapshotAsTheLineSays(CaptureFixture f, String line, Path yaml) throws Exception {
        String[] snapshot = command(line);
        assertThat(snapshot[0]).isEqualTo("snapshot");
        Path snapLog = f.dir.resolve("snapshot.log");
        assertThat(f.runToEnd(snapLog, snapshot)).as(Files.readString(snapLog)).isZero();
        String[] restart = command("`" + Files.readString(snapLog).replaceAll("(?s).*\\((tidemark run [^)]+)\\).*", "$1").trim() + "`");
        assertThat(restart).as("the start the snapshot command names").containsExactly("run", "--config", yaml.toString());
        return restart;
    }

    /** The {@code tidemark} command a line names between backticks, as arguments. */
    static String[] command(String line) {
        Matcher m = COMMAND.matcher(line);
        assertThat(m.find()).as("a `tidemark …` command in: %s", line).isTrue();
        List<String> args = new ArrayList<>(Arrays.asList(m.group(1).trim().split(" +")));
        return args.toArray(String[]::new);
    }

    private static void awaitEqual(CaptureFixture f, Process p, Path log) {
        try {
            await("target equal to source").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(300))
                    .ignoreExceptions() // the comparison throws while the target lacks a column the source has
                    .failFast("tidemark run exited", () -> !p.isAlive())
                    .until(() -> f.targetEqualsSource("id"));
        } catch (org.awaitility.core.ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
            throw new AssertionError(e.getMessage() + "\n--- last lines of the run's log ---\n" + CaptureFixture.tail(log), e);
        }
    }
}
