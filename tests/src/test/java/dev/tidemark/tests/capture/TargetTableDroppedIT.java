package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.tests.sink.TargetDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue "schema and topology changes", item 6, at table granularity: one target table dropped (or emptied) by hand
 * while the pipeline is stopped. Resuming from the stored offsets would create it on the next event with later rows
 * only (or leave it without the rows applied before); the start is refused instead (exit 3, one line naming the source
 * table, the target table, the topic and the one-table re-snapshot), and following that line word for word ends with
 * the target equal to the source. A target table that is empty because the source's rows were all deleted, refilled at
 * the source while stopped, is no fault.
 */
class TargetTableDroppedIT {
    static final TableId DROPPED = new TableId("public", "t20a");
    static final TableId KEPT = new TableId("public", "t20b");

    @TempDir
    Path dir;

    @Test
    void aDroppedTargetTableIsRefusedAtStartAndTheTableSnapshotTheLineNamesRebuildsIt() throws Exception {
        try (CaptureFixture f = new CaptureFixture("tgone", dir, List.of(DROPPED, KEPT))) {
            createTables(f);
            Path yaml = f.writeYaml();
            try (Sidecar s = f.start(f.config())) {
                f.sql("UPDATE public.t20a SET note = 'streamed' WHERE id <= 10");
                f.awaitTargetEqual(s, "id");
            }
            try (Connection t = f.connectTarget(); Statement st = t.createStatement()) {
                st.executeUpdate("DROP TABLE \"t20a\"");
            }
            f.sql("INSERT INTO public.t20a VALUES (101, 'while stopped')");

            String line = refusedStart(f, yaml, "run", () -> "it resumed into the dropped target table; target vs source: " + f.compareSummary("id"));
            assertThat(line).contains("public.t20a", "target table t20a", "topic " + f.config().topicFor(DROPPED));
            assertThat(tableExists(f, "t20a")).as("nothing was created in the target").isFalse();

            // the way on, word for word: the one-table snapshot, then the start it names
            Path rebuilt = dir.resolve("rebuilt.log");
            Process p = followSnapshotThenStart(f, yaml, line, rebuilt);
            awaitEqual(f, p, rebuilt, "the target rebuilt by the table snapshot equals the source");
            f.sql("INSERT INTO public.t20a VALUES (102, 'later')", "UPDATE public.t20b SET note = 'later' WHERE id = 1");
            awaitEqual(f, p, rebuilt, "later changes arrive");
            stop(p, rebuilt);
        }
    }

    @Test
    void aTableMappedToANewTargetTableIsRefusedAtStartAndTheTableSnapshotTheLineNamesFillsIt() throws Exception {
        try (CaptureFixture f = new CaptureFixture("tmoved", dir, List.of(DROPPED, KEPT))) {
            createTables(f);
            try (Sidecar s = f.start(f.config())) {
                f.awaitTargetEqual(s, "id");
            }
            Path yaml = f.writeYaml();
            Files.writeString(yaml, Files.readString(yaml).replace("target:\n", "target:\n  tables:\n    public.t20a: t20a_v2\n"));
            f.sql("INSERT INTO public.t20a VALUES (101, 'while stopped')");

            String line = refusedStart(f, yaml, "run", () -> "it resumed into the new target table t20a_v2: "
                    + f.targetColumn("SELECT count(*) || ' rows: ' || group_concat(id) FROM t20a_v2"));
            assertThat(line).contains("public.t20a", "target table t20a_v2", "topic " + f.config().topicFor(DROPPED));
            assertThat(tableExists(f, "t20a_v2")).as("nothing was created in the target").isFalse();

            Path rebuilt = dir.resolve("rebuilt.log");
            Process p = followSnapshotThenStart(f, yaml, line, rebuilt);
            awaitMapped(f, p, rebuilt, 101);
            f.sql("INSERT INTO public.t20a VALUES (102, 'later')");
            awaitMapped(f, p, rebuilt, 102);
            stop(p, rebuilt);
        }
    }

    @Test
    void aTargetTableEmptiedByHandIsRefusedAtStartAndTheTableSnapshotTheLineNamesRefillsIt() throws Exception {
        try (CaptureFixture f = new CaptureFixture("temptied", dir, List.of(DROPPED, KEPT))) {
            emptiedByHandThenFollowed(f, "DELETE FROM \"t20a\"");
        }
    }

    @Test
    void aPostgresTargetTableTruncatedByHandIsRefusedAtStartAndTheTableSnapshotTheLineNamesRefillsIt() throws Exception {
        try (TargetDatabase pgTarget = TargetDatabase.postgres();
             CaptureFixture f = new CaptureFixture("ttruncpg", dir, List.of(DROPPED, KEPT), pgTarget)) {
            emptiedByHandThenFollowed(f, "TRUNCATE \"t20a\"");
        }
    }

    /**
     * Emptied right after the initial snapshot, with no change since: the last records of its topic are the snapshot's
     * rows and the sweep that ends it, which removes only rows older than the snapshot.
     */
    @Test
    void aTargetTableEmptiedByHandRightAfterItsSnapshotIsRefusedAtStart() throws Exception {
        try (CaptureFixture f = new CaptureFixture("temptied0", dir, List.of(DROPPED, KEPT))) {
            emptiedByHandThenFollowed(f, "DELETE FROM \"t20a\"");
        }
    }

    @Test
    void aTargetTableEmptiedByHandIsRefusedByTidemarkSinkAloneToo() throws Exception {
        try (CaptureFixture f = new CaptureFixture("temptsink", dir, List.of(DROPPED, KEPT))) {
            createTables(f);
            Path yaml = f.writeYaml();
            try (Sidecar s = f.start(f.config())) {
                f.awaitTargetEqual(s, "id");
            }
            try (Connection t = f.connectTarget(); Statement st = t.createStatement()) {
                st.executeUpdate("DELETE FROM \"t20a\"");
            }
            String line = refusedStart(f, yaml, "sink", () -> "tidemark sink resumed into the emptied target table");
            assertThat(line).contains("target table t20a holds no rows", "`tidemark snapshot --config " + yaml + " --table public.t20a`");
            assertThat(f.targetColumn("SELECT count(*) FROM t20a")).as("nothing was applied").containsExactly("0");
        }
    }

    /**
     * Applies changes, stops, empties target table t20a with {@code emptying}, changes the source while stopped;
     * expects the start refused and follows the line word for word to a target equal to the source.
     */
    private void emptiedByHandThenFollowed(CaptureFixture f, String emptying) throws Exception {
        emptiedByHandThenFollowed(f, emptying, "UPDATE public.t20a SET note = 'streamed' WHERE id <= 10", "DELETE FROM public.t20a WHERE id = 100");
    }

    /** As above, with {@code streamed} the changes made after the snapshot (none: the snapshot and its sweep were the last records). */
    private void emptiedByHandThenFollowed(CaptureFixture f, String emptying, String... streamed) throws Exception {
        createTables(f);
        Path yaml = f.writeYaml();
        try (Sidecar s = f.start(f.config())) {
            if (streamed.length > 0) {
                f.sql(streamed);
            }
            f.awaitTargetEqual(s, "id");
        }
        try (Connection t = f.connectTarget(); Statement st = t.createStatement()) {
            st.executeUpdate(emptying);
        }
        f.sql("INSERT INTO public.t20a VALUES (101, 'while stopped')", "DELETE FROM public.t20a WHERE id = 1");

        String line = refusedStart(f, yaml, "run", () -> "it resumed into the emptied target table; target vs source: " + f.compareSummary("id"));
        assertThat(line).contains("public.t20a", "target table t20a", "topic " + f.config().topicFor(DROPPED), "holds no rows");
        assertThat(f.targetColumn("SELECT count(*) FROM t20a")).as("nothing was applied").containsExactly("0");

        Path refilled = dir.resolve("refilled.log");
        Process p = followSnapshotThenStart(f, yaml, line, refilled);
        awaitEqual(f, p, refilled, "the target refilled by the table snapshot equals the source");
        f.sql("INSERT INTO public.t20a VALUES (102, 'later')", "UPDATE public.t20b SET note = 'later' WHERE id = 1");
        awaitEqual(f, p, refilled, "later changes arrive");
        stop(p, refilled);
    }

    @Test
    void aTargetTableEmptiedByTheSourceAndRefilledAtTheSourceWhileStoppedStartsWithoutARefusal() throws Exception {
        try (CaptureFixture f = new CaptureFixture("trefill", dir, List.of(DROPPED, KEPT))) {
            createTables(f);
            Path yaml = f.writeYaml();
            try (Sidecar s = f.start(f.config())) {
                f.awaitTargetEqual(s, "id"); // the snapshot applied: then every row is deleted at the source
                f.sql("DELETE FROM public.t20a");
                f.awaitTargetEqual(s, "id");
            }
            assertThat(f.targetColumn("SELECT count(*) FROM t20a")).containsExactly("0");
            f.sql("INSERT INTO public.t20a SELECT g, 'again' || g FROM generate_series(1, 5) g");

            Path resumed = dir.resolve("resumed.log");
            Process p = f.spawn(resumed, "run", "--config", yaml.toString());
            awaitEqual(f, p, resumed, "the rows inserted at the source while stopped arrive in the empty target table");
            stop(p, resumed);
        }
    }

    /** Waits until target table t20a_v2 holds exactly the source's rows of public.t20a (every id and note). */
    private static void awaitMapped(CaptureFixture f, Process p, Path log, int rows) throws Exception {
        String source = "SELECT string_agg(id || '=' || note, ',' ORDER BY id) FROM public.t20a";
        String target = "SELECT group_concat(id || '=' || note, ',') FROM (SELECT id, note FROM t20a_v2 ORDER BY id)";
        try {
            await("t20a_v2 equals public.t20a (" + rows + " rows)").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark run exited", () -> !p.isAlive())
                    .until(() -> sourceValue(f, source).equals(targetValue(f, target)) && sourceValue(f, source).split(",").length == rows);
        } catch (org.awaitility.core.TerminalFailureException | org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "; t20a_v2: " + targetValue(f, "SELECT count(*) FROM t20a_v2") + " rows\n--- last lines of "
                    + log + " ---\n" + CaptureFixture.tail(log), e);
        }
    }

    private static String sourceValue(CaptureFixture f, String sql) throws Exception {
        try (Connection c = f.pg.connect(f.database); Statement st = c.createStatement(); var rs = st.executeQuery(sql)) {
            return rs.next() ? String.valueOf(rs.getString(1)) : "";
        }
    }

    private static String targetValue(CaptureFixture f, String sql) {
        try (Connection c = f.connectTarget(); Statement st = c.createStatement(); var rs = st.executeQuery(sql)) {
            return rs.next() ? String.valueOf(rs.getString(1)) : "";
        } catch (java.sql.SQLException e) {
            return e.getMessage();
        }
    }

    /**
     * Runs the one command {@code line} names (the table snapshot), checks the start that command's output names, and
     * spawns that start; its output goes into {@code log}.
     */
    private Process followSnapshotThenStart(CaptureFixture f, Path yaml, String line, Path log) throws Exception {
        List<String> commands = commands(line);
        assertThat(commands).containsExactly("tidemark snapshot --config " + yaml + " --table public.t20a");
        Path snapshot = dir.resolve("snapshot.log");
        assertThat(f.runToEnd(snapshot, args(commands.get(0)))).as(Files.readString(snapshot)).isZero();
        String start = "tidemark run --config " + yaml;
        assertThat(commands(Files.readString(snapshot))).as("the start the snapshot names; log:\n" + Files.readString(snapshot))
                .contains(start);
        return f.spawn(log, args(start));
    }

    /** The two captured tables: public.t20a (100 rows), public.t20b (20 rows). */
    private static void createTables(CaptureFixture f) throws Exception {
        f.sql("CREATE TABLE public.t20a (id int PRIMARY KEY, note text)", "CREATE TABLE public.t20b (id int PRIMARY KEY, note text)",
                "INSERT INTO public.t20a SELECT g, 'a' || g FROM generate_series(1, 100) g",
                "INSERT INTO public.t20b SELECT g, 'b' || g FROM generate_series(1, 20) g");
    }

    private static void stop(Process p, Path log) throws Exception {
        p.destroy();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("exit code after SIGTERM; log:\n" + CaptureFixture.tail(log)).isZero();
    }

    /**
     * Spawns {@code tidemark <command> --config yaml}, expects it refused (exit 3, one line, no stack trace) and returns that line;
     * if it keeps running, fails with {@code whatIfRunning}.
     */
    private String refusedStart(CaptureFixture f, Path yaml, String command, java.util.concurrent.Callable<String> whatIfRunning)
            throws Exception {
        Path refused = dir.resolve("refused.log");
        int code = f.awaitExit(f.spawn(refused, command, "--config", yaml.toString()), refused, Duration.ofSeconds(60), whatIfRunning);
        String output = Files.readString(refused);
        assertThat(code).as("exit code of the refused start; log:\n" + output).isEqualTo(3);
        List<String> errors = CaptureFixture.errorLines(refused);
        assertThat(errors).as("one error line; log:\n" + output).hasSize(1);
        assertThat(CaptureFixture.stackTraceLines(refused)).as("no stack trace").isEmpty();
        System.out.println("refused with exit " + code + ": " + errors.get(0));
        return errors.get(0);
    }

    private static void awaitEqual(CaptureFixture f, Process p, Path log, String what) throws Exception {
        try {
            await(what).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark run exited", () -> !p.isAlive()).until(() -> f.targetEqualsSource("id"));
        } catch (org.awaitility.core.TerminalFailureException | org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "; target vs source: " + f.compareSummary("id") + "\n--- last lines of "
                    + log + " ---\n" + CaptureFixture.tail(log), e);
        }
    }

    private static boolean tableExists(CaptureFixture f, String table) throws Exception {
        try (Connection t = f.connectTarget(); var rs = t.getMetaData().getTables(null, null, table, null)) {
            return rs.next();
        }
    }

    /** The commands in backticks in {@code text}. */
    private static List<String> commands(String text) {
        Matcher m = Pattern.compile("`(tidemark [^`]+)`|\\((tidemark [^)]+)\\)").matcher(text);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1) != null ? m.group(1) : m.group(2));
        }
        return out;
    }

    private static String[] args(String command) {
        return command.substring("tidemark ".length()).split(" ");
    }
}
