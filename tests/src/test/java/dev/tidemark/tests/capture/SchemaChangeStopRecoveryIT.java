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
     * One {@code ALTER TABLE} that rewrote every row four ways: the primary key column {@code id} from integer to
     * numeric(12,0) (the target key column takes the new type), {@code k} narrowed to smallint, {@code n} from integer
     * to numeric(12,2), and {@code w} from text to integer through a {@code USING} expression the target cannot repeat
     * (its cast of {@code 'w5'} to integer fails, so the target column is set to NULL until the snapshot rewrites it).
     */
    private static final String RETYPE = "ALTER TABLE sr_items ALTER COLUMN id TYPE numeric(12,0), ALTER COLUMN k TYPE smallint, "
            + "ALTER COLUMN n TYPE numeric(12,2), ALTER COLUMN w TYPE int USING length(w)";
    private static final String RETYPED = "column id changed type from integer to numeric(12,0)";
    private static final String AFTER_RETYPE = "UPDATE sr_items SET k = -1, n = 12.34, w = 7, v = 'later' WHERE id = 3";

    @Test
    void aTypeChangeThatRewroteRowsStopIsRecoveredByTheSnapshotItsLineNames() throws Exception {
        followTheLine("schema_retype", null, RETYPE, RETYPED, AFTER_RETYPE);
    }

    @Test
    void aTypeChangeThatRewroteRowsStopIsRecoveredByTheSnapshotItsLineNamesIntoPostgres() throws Exception {
        try (TargetDatabase target = TargetDatabase.postgres()) {
            followTheLine("schema_retype_pg", target, RETYPE, RETYPED, AFTER_RETYPE);
        }
    }

    @Test
    void aTypeChangeThatRewroteRowsStopIsRecoveredByTheSnapshotItsLineNamesIntoMariaDb() throws Exception {
        try (TargetDatabase target = TargetDatabase.mariadb()) {
            followTheLine("schema_retype_my", target, RETYPE, RETYPED, AFTER_RETYPE);
        }
    }

    /**
     * 2,000 rows streamed; then {@code ddl} between changes stops capture (exit 3, the line containing {@code stopped});
     * the line's command and then the start the command names are run word for word; the target must then equal the
     * source in every value, {@code later} and an insert must arrive, and {@code tidemark reconcile} must find nothing.
     */
    private void followTheLine(String hint, TargetDatabase target, String ddl, String stopped, String later) throws Exception {
        try (CaptureFixture f = new CaptureFixture(hint, dir, List.of(T), target)) {
            Path yaml = f.writeYaml();
            String line = streamThenStop(f, yaml, ddl, "sr_items", stopped);
            assertThat(line).contains("--table public.sr_items");
            Path log1 = dir.resolve("run-1.log");
            Process again = runTheSnapshotCommandThenTheStart(f, line, yaml, log1);
            awaitEqual(f, again, log1, f.tables);
            f.sql("INSERT INTO sr_items (id, k) VALUES (5002, 2)", later);
            awaitEqual(f, again, log1, f.tables);
            assertThat(f.targetEqualsSource("id")).as("every value, the changed column's included: %s", f.compareSummary("id")).isTrue();
            again.destroy();
            again.waitFor();
            assertReconcileFindsNothing(f, yaml);
        }
    }

    /**
     * A table renamed while capture runs stops it (exit 3) with a line telling to put the new name in
     * {@code source.tables} in place of the old one and to run {@code tidemark snapshot … --table NEW}; the test edits
     * the pipeline file as the line says, runs the command and the start it names: the target's table of the new name
     * then equals the renamed source table in every value, later changes stream into it, and the target's table of the
     * old name keeps the rows it had at the rename (no longer written).
     */
    @Test
    void aRenamedTableStopIsRecoveredByTheEditAndTheSnapshotItsLineNames() throws Exception {
        TableId renamed = new TableId("public", "sr_other");
        try (CaptureFixture f = new CaptureFixture("schema_rename", dir, List.of(T))) {
            Path yaml = f.writeYaml();
            String line = streamThenStop(f, yaml, "ALTER TABLE sr_items RENAME TO sr_other", "sr_other", "was renamed to public.sr_other");
            Matcher edit = Pattern.compile("Put (\\S+) in source.tables in place of (\\S+), then run").matcher(line);
            assertThat(edit.find()).as("the edit the line names: %s", line).isTrue();
            String pipeline = Files.readString(yaml);
            String tablesLine = "  tables: [" + edit.group(2) + "]";
            assertThat(pipeline).contains(tablesLine);
            Files.writeString(yaml, pipeline.replace(tablesLine, "  tables: [" + edit.group(1) + "]"));

            Path log1 = dir.resolve("run-1.log");
            Process again = runTheSnapshotCommandThenTheStart(f, line, yaml, log1);
            awaitEqual(f, again, log1, List.of(renamed));
            f.sql("INSERT INTO sr_other (id, k) VALUES (5002, 2)", "UPDATE sr_other SET k = -1, v = 'later' WHERE id = 3");
            awaitEqual(f, again, log1, List.of(renamed));
            assertThat(f.targetEqualsSource(List.of(renamed), "id")).as("every value: %s", f.compareSummary(List.of(renamed), "id")).isTrue();
            assertThat(f.targetColumn("SELECT count(*) || ' ' || sum(k) || ' ' || count(*) FILTER (WHERE v LIKE 'after%') FROM sr_items"))
                    .as("the old target table keeps the rows it had at the rename (2,000; k negated where id %% 7 = 0), not written since")
                    .containsExactly("2000 " + (2001000 * 10 - 2 * 10 * 7 * (285 * 286 / 2)) + " 0");
            again.destroy();
            again.waitFor();
            assertReconcileFindsNothing(f, yaml);
        }
    }

    /** A digest of a table of {@code sr_items}' shape: rows, sum of keys, sum of k, rows changed after the rename. */
    private static final String DIGEST = "SELECT count(*) || ' ' || sum(id) || ' ' || sum(k) || ' ' || count(*) FILTER (WHERE v LIKE 'after%%') FROM %s";

    /**
     * Changes made before a rename in the rename's own transaction are decoded only once the rename is committed, when
     * the old name is no longer in the catalog (Debezium reads a table's primary key from the catalog by name as it is
     * when it decodes): they must still arrive under the old name with their keys — updates, deletes and an update of
     * the key itself — and capture must stop on the rename before the changes after it. {@code sr_expected}, made in
     * the transaction just before the rename, holds what the old target table must then hold.
     */
    @Test
    void changesBeforeARenameInItsTransactionArriveUnderTheOldNameWithTheirKeys() throws Exception {
        try (CaptureFixture f = new CaptureFixture("schema_rename_tx", dir, List.of(T))) {
            Path yaml = f.writeYaml();
            f.sql("CREATE TABLE public.sr_items (id int PRIMARY KEY, k int, n int, w text, v text)",
                    "INSERT INTO sr_items SELECT g, g * 10, g, 'w' || g, 'row ' || g FROM generate_series(1, 2000) g");
            Path log0 = dir.resolve("run-0.log");
            Process p = f.spawn(log0, "run", "--config", yaml.toString());
            awaitEqual(f, p, log0, f.tables);
            f.source.setAutoCommit(false);
            f.sql("UPDATE sr_items SET k = -k WHERE id % 7 = 0", "DELETE FROM sr_items WHERE id % 13 = 0",
                    "UPDATE sr_items SET id = id + 10000 WHERE id % 17 = 0",
                    "CREATE TABLE public.sr_expected AS SELECT * FROM sr_items",
                    "ALTER TABLE sr_items RENAME TO sr_other",
                    "UPDATE sr_other SET v = 'after ' || id WHERE id % 11 = 0", "INSERT INTO sr_other (id, k) VALUES (5001, 1)");
            f.source.commit();
            f.source.setAutoCommit(true);
            assertThat(f.awaitExit(p, log0, Duration.ofSeconds(90), () -> "no stop")).as("exit code of the stop: %s", CaptureFixture.tail(log0)).isEqualTo(3);
            assertThat(CaptureFixture.errorLines(log0)).as("the stop line").singleElement().asString()
                    .contains("was renamed to public.sr_other");
            List<String> expected = new ArrayList<>();
            try (var st = f.source.createStatement(); var rs = st.executeQuery(DIGEST.formatted("sr_expected"))) {
                rs.next();
                expected.add(rs.getString(1));
            }
            assertThat(f.targetColumn(DIGEST.formatted("sr_items")))
                    .as("the old target table as the source table was at the rename (k negated, rows deleted, keys moved): %s",
                            CaptureFixture.tail(log0))
                    .isEqualTo(expected);
        }
    }

    /** {@link #DIGEST} with the sum of {@code n} too. */
    private static final String DIGEST_N = "SELECT count(*) || ' ' || sum(id) || ' ' || sum(k) || ' ' || sum(n) FROM %s";

    /**
     * A backlog of 4,000 updates committed just before a rename, while the test holds a lock on the PostgreSQL target
     * table until the run has begun to close after capture stopped on the rename (the catch-up's first line, or without
     * a catch-up capture's close): the sink is then still behind by construction (blocked on its first batch of the
     * backlog), and the run's log shows the catch-up applying what capture sent before the stop.
     * When {@code tidemark run} has exited 3 with capture's line, the old target table must hold every one of them, as
     * {@code sr_expected} (made just before the rename) holds the source table: the line's way on takes the table out
     * of {@code source.tables}, and no sink would read those records again.
     */
    @Test
    void theSinkAppliesTheBacklogCaptureSentBeforeARenameStoppedIt() throws Exception {
        try (TargetDatabase target = TargetDatabase.postgres();
             CaptureFixture f = new CaptureFixture("schema_rename_backlog", dir, List.of(T), target)) {
            Path yaml = f.writeYaml();
            Path log0 = dir.resolve("run-0.log");
            Process p = streamThenBacklogAndRenameWhileTheTargetIsLocked(f, target, yaml, log0,
                    "capture stopped on a change; applying", "DebeziumChangeSource - capture " + f.name + " stopped after");
            assertThat(f.awaitExit(p, log0, Duration.ofSeconds(90), () -> "no stop")).as("exit code of the stop: %s", CaptureFixture.tail(log0)).isEqualTo(3);
            assertThat(CaptureFixture.errorLines(log0)).as("the stop line").singleElement().asString()
                    .contains("was renamed to public.sr_other");
            assertThat(f.targetColumn(DIGEST_N.formatted("sr_items")))
                    .as("the old target table as the source table was at the rename (every update of the backlog): %s", CaptureFixture.tail(log0))
                    .containsExactly(expectedAtTheRename(f));
            assertThat(Files.readAllLines(log0)).as("the sink was still behind when capture stopped (the backlog existed)")
                    .anyMatch(l -> l.contains("capture stopped on a change; applying what capture sent before it (60 s at most): topic "));
        }
    }

    /**
     * The catch-up runs out of time: the test holds the lock on the target table until the run logs that the sink did
     * not apply every record within the 60 s; that line must name what was not applied and the command that applies
     * it. The run then exits 3 with capture's line, the old target table lacking the backlog; the test follows the
     * line word for word — {@code tidemark sink} on the unchanged pipeline file until {@code tidemark status} shows lag
     * 0 — and the old target table must then hold every change committed before the rename.
     */
    @Test
    void aCatchUpThatRunsOutNamesWhatItDidNotApplyAndTheSinkThatAppliesIt() throws Exception {
        try (TargetDatabase target = TargetDatabase.postgres();
             CaptureFixture f = new CaptureFixture("schema_rename_late", dir, List.of(T), target)) {
            Path yaml = f.writeYaml();
            Path log0 = dir.resolve("run-0.log");
            Process p = streamThenBacklogAndRenameWhileTheTargetIsLocked(f, target, yaml, log0, "did not apply every record");
            String line = Files.readAllLines(log0).stream().filter(l -> l.contains("did not apply every record")).findFirst().orElseThrow();
            assertThat(f.awaitExit(p, log0, Duration.ofSeconds(90), () -> "no stop")).as("exit code of the stop: %s", CaptureFixture.tail(log0)).isEqualTo(3);
            assertThat(CaptureFixture.errorLines(log0)).as("the stop line").singleElement().asString()
                    .contains("was renamed to public.sr_other");
            assertThat(line).as("what was not applied").containsPattern("not applied: topic \\S+\\.public\\.sr_items partition [01] offsets \\d+ to \\d+");
            String expected = expectedAtTheRename(f);
            assertThat(f.targetColumn(DIGEST_N.formatted("sr_items"))).as("the backlog not applied at the exit").doesNotContain(expected);

            String[] sink = command(line);
            assertThat(sink).containsExactly("sink", "--config", yaml.toString());
            Path log1 = dir.resolve("sink-1.log");
            Process s = f.spawn(log1, sink);
            String[] status = command(line.substring(line.indexOf("` until ") + 1));
            assertThat(status).containsExactly("status", "--config", yaml.toString());
            Path statusLog = dir.resolve("status.log");
            await("`tidemark status` showing lag 0 for both partitions of public.sr_items").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(500))
                    .failFast("tidemark sink exited", () -> !s.isAlive())
                    .until(() -> f.runToEnd(statusLog, status) == 0 && Files.readAllLines(statusLog).stream()
                            .filter(l -> l.matches("\\s*\\S+\\.public\\.sr_items\\s+[01]\\s+\\d+\\s+\\d+\\s+0\\s*")).count() == 2);
            s.destroy();
            s.waitFor();
            assertThat(f.targetColumn(DIGEST_N.formatted("sr_items")))
                    .as("the old target table as the source table was at the rename: %s", CaptureFixture.tail(log1))
                    .containsExactly(expected);
        }
    }

    /**
     * Creates {@code sr_items} (2,000 rows) and streams it with {@code tidemark run} into the PostgreSQL target; then,
     * holding {@code ACCESS EXCLUSIVE} on the target table, commits two updates of every row, {@code sr_expected} (the
     * table as it is then) and the rename, and releases the lock once the run's log has a line containing one of
     * {@code releaseAt}. Returns the run.
     */
    private Process streamThenBacklogAndRenameWhileTheTargetIsLocked(CaptureFixture f, TargetDatabase target, Path yaml, Path log,
                                                                    String... releaseAt) throws Exception {
        f.sql("CREATE TABLE public.sr_items (id int PRIMARY KEY, k int, n int, w text, v text)",
                "INSERT INTO sr_items SELECT g, g * 10, g, 'w' || g, 'row ' || g FROM generate_series(1, 2000) g");
        Process p = f.spawn(log, "run", "--config", yaml.toString());
        awaitEqual(f, p, log, f.tables);
        try (java.sql.Connection lock = target.connect(); var st = lock.createStatement()) {
            lock.setAutoCommit(false);
            st.execute("LOCK TABLE \"sr_items\" IN ACCESS EXCLUSIVE MODE");
            f.sql("UPDATE sr_items SET n = n + 1", "UPDATE sr_items SET n = n + 1, k = k + 1",
                    "CREATE TABLE public.sr_expected AS SELECT * FROM sr_items", "ALTER TABLE sr_items RENAME TO sr_other");
            await("a line containing one of " + List.of(releaseAt) + " in the run's log").atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(200))
                    .failFast("tidemark run exited", () -> !p.isAlive())
                    .until(() -> Files.readAllLines(log).stream().anyMatch(l -> Arrays.stream(releaseAt).anyMatch(l::contains)));
            lock.rollback();
        }
        return p;
    }

    /** {@link #DIGEST_N} of {@code sr_expected}: the source table as it was at the rename. */
    private static String expectedAtTheRename(CaptureFixture f) throws Exception {
        try (var st = f.source.createStatement(); var rs = st.executeQuery(DIGEST_N.formatted("sr_expected"))) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * Creates {@code sr_items} (2,000 rows), streams it with {@code tidemark run}, then runs {@code ddl} between changes
     * (later statements name the table {@code tableAfter}); demands the stop (exit 3, one line containing
     * {@code stopped}) and returns that line.
     */
    private String streamThenStop(CaptureFixture f, Path yaml, String ddl, String tableAfter, String stopped) throws Exception {
        f.sql("CREATE TABLE public.sr_items (id int PRIMARY KEY, k int, n int, w text, v text)",
                "INSERT INTO sr_items SELECT g, g * 10, g, 'w' || g, 'row ' || g FROM generate_series(1, 2000) g");
        Path log0 = dir.resolve("run-0.log");
        Process p = f.spawn(log0, "run", "--config", yaml.toString());
        awaitEqual(f, p, log0, f.tables);
        f.sql("UPDATE sr_items SET k = -k WHERE id % 7 = 0", ddl,
                "UPDATE " + tableAfter + " SET v = 'after ' || id WHERE id % 11 = 0",
                "INSERT INTO " + tableAfter + " (id, k) VALUES (5001, 1)");
        assertThat(f.awaitExit(p, log0, Duration.ofSeconds(90), () -> "no stop")).as("exit code of the stop").isEqualTo(3);
        List<String> errors = CaptureFixture.errorLines(log0);
        assertThat(errors).as("the stop line").singleElement().asString().contains(stopped);
        return errors.get(0);
    }

    /**
     * Runs the {@code tidemark snapshot} command {@code stopLine} names, word for word, then starts the pipeline as its
     * output says ({@code (tidemark run --config F)}); returns the started run (output into {@code log}).
     */
    private Process runTheSnapshotCommandThenTheStart(CaptureFixture f, String stopLine, Path yaml, Path log) throws Exception {
        return f.spawn(log, snapshotAsTheLineSays(f, stopLine, yaml));
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

    private void assertReconcileFindsNothing(CaptureFixture f, Path yaml) throws Exception {
        Path reconcileLog = dir.resolve("reconcile.log");
        assertThat(f.runToEnd(reconcileLog, "reconcile", "--config", yaml.toString(), "--settle", "1s", "--no-progress"))
                .as(Files.readString(reconcileLog)).isZero();
    }

    /** The {@code tidemark} command a line names between backticks, as arguments. */
    static String[] command(String line) {
        Matcher m = COMMAND.matcher(line);
        assertThat(m.find()).as("a `tidemark …` command in: %s", line).isTrue();
        List<String> args = new ArrayList<>(Arrays.asList(m.group(1).trim().split(" +")));
        return args.toArray(String[]::new);
    }

    private static void awaitEqual(CaptureFixture f, Process p, Path log, List<TableId> tables) {
        try {
            await("target equal to source " + tables).atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(300))
                    .ignoreExceptions() // the comparison throws while the target lacks a column the source has
                    .failFast("tidemark run exited", () -> !p.isAlive())
                    .until(() -> f.targetEqualsSource(tables, "id"));
        } catch (org.awaitility.core.ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
            throw new AssertionError(e.getMessage() + "\n--- last lines of the run's log ---\n" + CaptureFixture.tail(log), e);
        }
    }
}
