package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.testkit.TableComparison;
import dev.tidemark.tests.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;

/**
 * The scenarios of {@link OperatorActionsCorpusIT#eachStopIsRecoveredByTheCommandItsLineNames}: each brings a
 * pipeline ({@link CaptureFixture}) to the moment of the operator's action, takes it, checks the one line (exit code,
 * no stack trace, what it names) and follows the way on the line names, word for word, to a target equal to the source
 * that {@code tidemark reconcile} confirms.
 */
final class OperatorActions {
    static final TableId ORDERS = new TableId("public", "orders");
    static final TableId TICKETS = new TableId("public", "tickets");
    static final TableId BULK = new TableId("public", "bulk");
    private static final Pattern TRACE = Pattern.compile("^\\tat |Exception\\b|^Caused by", Pattern.MULTILINE);
    private static final Pattern OWN_SLOT = Pattern.compile("set source\\.slot in (\\S+) to a name no other pipeline uses");

    /** One scenario of the corpus. */
    @FunctionalInterface
    interface Scenario {
        void play(OperatorActions s) throws Exception;
    }

    final CaptureFixture f;
    final Path dir;

    OperatorActions(CaptureFixture f) {
        this.f = f;
        this.dir = f.dir;
    }

    /**
     * The output of a command that stopped or was refused: exit code {@code exit}, one {@code tidemark:} line holding
     * every one of {@code says}, no stack trace or exception name. Returns the line.
     */
    String stopped(Path log, int code, int exit, String... says) throws Exception {
        String out = Files.readString(log);
        assertThat(code).as("exit code; output:%n%s", out).isEqualTo(exit);
        List<String> lines = CaptureFixture.errorLines(log);
        assertThat(lines).as("one line; output:%n%s", out).hasSize(1);
        if (says.length > 0) {
            assertThat(lines.get(0)).contains(says);
        }
        assertThat(TRACE.matcher(out).find()).as("no stack trace or exception name in:%n%s", out).isFalse();
        return lines.get(0);
    }

    /** {@code tidemark reconcile --config FILE} finds no difference (exit 0). */
    void reconcileFindsNoDifference(Path yaml) throws Exception {
        Path log = dir.resolve("reconcile-" + yaml.getFileName() + ".log");
        assertThat(f.runToEnd(log, "reconcile", "--config", yaml.toString(), "--settle", "1s")).as(CaptureFixture.tail(log)).isZero();
    }

    /** Runs {@code command} (as the line names it, without {@code tidemark}) to its end; returns its exit code. */
    int follow(Path log, String command) throws Exception {
        return f.runToEnd(log, command.split(" "));
    }

    // ---- 2: another running pipeline's slot

    /**
     * Pipeline B configured with pipeline A's slot: while A runs and after it stopped, B's {@code run},
     * {@code run --resnapshot}, {@code run --accept-gap} and {@code drop --yes} are refused naming A, never advising a
     * step that touches A's slot, which stays where it was; the advice (a slot of B's own) followed runs B.
     */
    static void anotherPipelinesSlot(OperatorActions s) throws Exception {
        CaptureFixture a = s.f;
        a.sql("CREATE TABLE public.orders (id int PRIMARY KEY, note text)", "INSERT INTO orders SELECT g, 'n' FROM generate_series(1, 20) g");
        Sidecar running = a.start(true, true);
        a.awaitTargetEqual(running, "id");
        await("A stored offsets").atMost(Duration.ofSeconds(30)).until(() -> Files.exists(a.offsetsFile()));
        Path b = s.pipelineB();
        String[] says = {"replication slot \"" + a.slot() + "\" belongs to pipeline " + a.name + " (owner id ",
                "not to pipeline " + a.name + "_b", "set source.slot in " + b + " to a name no other pipeline uses"};
        Path whileRunning = s.dir.resolve("b-running.log");
        assertThat(s.stopped(whileRunning, a.runToEnd(whileRunning, "run", "--config", b.toString()), 3, says))
                .contains("in use: held by PID").doesNotContain("--resnapshot");
        running.close();
        String confirmed = a.slotConfirmedLsn();
        String line = null;
        for (List<String> args : List.of(List.of("run"), List.of("run", "--resnapshot"), List.of("run", "--accept-gap"), List.of("drop", "--yes"))) {
            Path log = s.dir.resolve("b-" + String.join("", args).replace("-", "") + ".log");
            String[] argv = java.util.stream.Stream.concat(args.stream(), java.util.stream.Stream.of("--config", b.toString())).toArray(String[]::new);
            String l = s.stopped(log, a.runToEnd(log, argv), 3, says);
            line = line == null ? l : line;
            assertThat(l).doesNotContain("--resnapshot");
            assertThat(Files.readString(log)).as("%s never drops A's slot", args).doesNotContain("dropping slot");
            assertThat(a.slotConfirmedLsn()).as("A's slot after B's %s: there, not advanced", args).isEqualTo(confirmed);
        }
        assertThat(s.dir.resolve("state-b")).as("nothing created for B").doesNotExist();

        Matcher m = OWN_SLOT.matcher(line);
        assertThat(m.find()).isTrue();
        Path file = Path.of(m.group(1));
        Files.writeString(file, Files.readString(file).replace("  slot: " + a.slot(), "  slot: " + a.slot() + "_b"));
        Path ok = s.dir.resolve("b-own-slot.log");
        Process own = a.spawn(ok, "run", "--config", file.toString());
        try {
            await("B runs on a slot of its own and its target equals the source").atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250)).failFast("B exited", () -> !own.isAlive())
                    .until(() -> s.equalIn(s.dir.resolve("target-b.db"), ORDERS));
        } finally {
            own.destroy();
            own.waitFor(60, TimeUnit.SECONDS);
            a.sql("SELECT pg_drop_replication_slot('" + a.slot() + "_b')");
        }
        assertThat(a.slotConfirmedLsn()).as("A's slot untouched").isEqualTo(confirmed);
        s.reconcileFindsNoDifference(file);
    }

    /** Pipeline B: its own name, topics, publication, state folder and target, and A's slot. */
    private Path pipelineB() throws Exception {
        String yaml = Files.readString(f.writeYaml()).lines().map(l -> {
            if (l.startsWith("name: ")) {
                return "name: " + f.name + "_b";
            } else if (l.startsWith("  publication: ") || l.startsWith("  topicPrefix: ") || l.startsWith("    group.instance.id: ")) {
                return l + "_b";
            } else if (l.startsWith("stateDir: ")) {
                return "stateDir: state-b";
            }
            return l.replace("target.db", "target-b.db");
        }).collect(Collectors.joining("\n", "", "\n"));
        return Files.writeString(dir.resolve("b.yaml"), yaml);
    }

    private boolean equalIn(Path sqlite, TableId table) {
        try (Connection t = DriverManager.getConnection("jdbc:sqlite:" + sqlite)) {
            return TableComparison.compare(f.source, table, List.of("id"), t, table.table(), TableComparison.QuoteStyle.DOUBLE).equal();
        } catch (java.sql.SQLException e) {
            return false; // not created yet
        }
    }

    // ---- 5: records the target never applied are gone from Kafka

    /**
     * Retention deleted records the sink never applied (capture alone sent 30 updates and 6 deletes, then the log
     * start moved past them): {@code run} stops naming the flag and the table's re-snapshot within moments of its start,
     * while capture's engine is still starting, and its two commands followed (the run with the flag, then the snapshot
     * while it runs) end equal; then the same again (30 more updates and 6 deletes captured alone, retention) for
     * {@code sink}, whose two commands are followed beside the pipeline's capture.
     */
    static void retentionDeletedUnappliedRecords(OperatorActions s) throws Exception {
        s.appliedThenCapturedAlone();
        s.retentionDeletesAll();
        Path yaml = s.f.writeYaml();
        String file = yaml.toString();
        // run: its sink stops within moments of the start, while capture's engine is still starting its tasks
        Path runLog = s.dir.resolve("run.log");
        String runLine = s.stopped(runLog, s.f.runToEnd(runLog, "run", "--config", file), 3, "is below the earliest offset",
                "Nothing was skipped", "`tidemark run --config " + file + " --accept-retention-gap`",
                "`tidemark snapshot --config " + file + " --table public.orders`");
        assertThat(runLine).doesNotContain("reconcile", "<pipeline file>");
        s.followTheFlagThenTheSnapshot(yaml, OperatorActionsCorpusIT.commands(runLine), "run-");

        s.capturedAlone("UPDATE orders SET total = -1 WHERE id BETWEEN 37 AND 66", "DELETE FROM orders WHERE id BETWEEN 67 AND 72");
        s.retentionDeletesAll();
        Path sinkLog = s.dir.resolve("sink.log");
        String line = s.stopped(sinkLog, s.f.runToEnd(sinkLog, "sink", "--config", file), 3, "is below the earliest offset",
                "Nothing was skipped", "`tidemark sink --config " + file + " --accept-retention-gap`",
                "`tidemark snapshot --config " + file + " --table public.orders`");
        assertThat(line).doesNotContain("reconcile", "<pipeline file>");
        s.followTheFlagThenTheSnapshot(yaml, OperatorActionsCorpusIT.commands(line), "sink-");
    }

    /** Retention as the broker does it: every partition's log start moved to its end. */
    void retentionDeletesAll() throws Exception {
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", f.bootstrap))) {
            Map<TopicPartition, RecordsToDelete> all = new HashMap<>();
            f.endOffsets().forEach((tp, end) -> all.put(tp, RecordsToDelete.beforeOffset(end)));
            admin.deleteRecords(all).all().get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * The topics deleted by hand (not by {@code tidemark drop}) while the pipeline was stopped, holding changes the
     * target never applied: {@code run} and {@code sink} refuse before they create anything, {@code status} shows a
     * problem per partition (never lag 0); the run's two commands followed end equal.
     */
    static void topicsDeletedWhileStopped(OperatorActions s) throws Exception {
        s.appliedThenCapturedAlone();
        List<String> topics = s.f.config().topics();
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", s.f.bootstrap))) {
            admin.deleteTopics(topics).all().get(30, TimeUnit.SECONDS);
            await("topics deleted").atMost(Duration.ofSeconds(30))
                    .until(() -> admin.listTopics().names().get(10, TimeUnit.SECONDS).stream().noneMatch(Set.copyOf(topics)::contains));
        }
        String file = s.f.writeYaml().toString();
        String snapshot = "`tidemark snapshot --config " + file + " --table public.orders`";
        String runLine = null;
        for (String command : List.of("run", "sink")) {
            CliRun r = CliRun.run(command, "--config", file);
            String all = r.out() + r.err();
            assertThat(r.exit()).as(command + ": exit code; output:\n" + all).isEqualTo(3);
            List<String> lines = r.err().lines().filter(l -> l.startsWith("tidemark: ")).toList();
            assertThat(lines).as(command + ": one line; output:\n" + all).singleElement().asString()
                    .contains("is past the end offset 0", "Nothing was created or changed",
                            "`tidemark " + command + " --config " + file + " --accept-retention-gap`", snapshot)
                    .doesNotContain("<pipeline file>", "reconcile");
            assertThat(TRACE.matcher(all).find()).as(command + ": no stack trace in:\n" + all).isFalse();
            assertThat(OperatorActionsCorpusIT.topics()).as(command + ": nothing created").doesNotContainAnyElementsOf(topics);
            runLine = runLine == null ? lines.get(0) : runLine;
        }
        CliRun status = CliRun.run("status", "--config", file);
        assertThat(status.exit()).as("status: exit code; output:\n" + status.out() + status.err()).isEqualTo(3);
        assertThat(status.out() + status.err()).contains("problem: topic " + topics.get(0) + " partition ", "is past the end offset 0",
                "`tidemark run --config " + file + " --accept-retention-gap`", "total lag: unknown", snapshot)
                .doesNotContain("total lag: 0", "does not exist yet", "reconcile");
        assertThat(OperatorActionsCorpusIT.topics()).as("status: nothing created").doesNotContainAnyElementsOf(topics);
        s.followTheFlagThenTheSnapshot(Path.of(file), OperatorActionsCorpusIT.commands(runLine), "");
    }

    /** 120 rows captured and applied, stopped; then capture alone sends 30 updates and 6 deletes the sink never reads. */
    void appliedThenCapturedAlone() throws Exception {
        f.sql("CREATE TABLE public.orders (id int PRIMARY KEY, total int)", "INSERT INTO orders SELECT g, g FROM generate_series(1, 120) g");
        Sidecar first = f.start(true, true);
        f.awaitTargetEqual(first, "id");
        first.close();
        capturedAlone("UPDATE orders SET total = 0 WHERE id <= 30", "DELETE FROM orders WHERE id BETWEEN 31 AND 36");
    }

    /** Capture alone sends {@code update} (30 rows) and {@code delete} (6 rows), which the sink never reads. */
    private void capturedAlone(String update, String delete) throws Exception {
        await("the slot idle (a tidemark process before this one has ended)").atMost(Duration.ofSeconds(30)).until(() -> !slotActive());
        long before = total(f.endOffsets());
        Sidecar captureOnly = f.start(true, false);
        f.sql(update, delete);
        await("capture sends the 36 changes the sink never reads").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .failFast("capture failed", () -> captureOnly.failure().isPresent())
                .until(() -> total(f.endOffsets()) >= before + 36);
        captureOnly.close();
    }

    private static long total(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Follows "accept the gap (`run|sink … --accept-retention-gap`) and then, while it runs, `snapshot … --table …`";
     * beside a sink alone the pipeline's capture runs too, as {@code tidemark capture}.
     */
    private void followTheFlagThenTheSnapshot(Path yaml, List<String> commands, String logPrefix) throws Exception {
        assertThat(commands).as("the flag, then the table's snapshot").hasSize(2);
        assertThat(commands.get(0)).endsWith(" --accept-retention-gap");
        Path runLog = dir.resolve(logPrefix + "accepted.log");
        Process run = f.spawn(runLog, commands.get(0).split(" "));
        Process capture = commands.get(0).startsWith("sink ")
                ? f.spawn(dir.resolve(logPrefix + "capture.log"), "capture", "--config", yaml.toString())
                : null;
        await("the run with the flag accepts the gap").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .failFast("tidemark " + commands.get(0) + " exited", () -> !run.isAlive())
                .until(() -> Files.readString(runLog).contains("accepted retention gap"));
        assertThat(Files.readString(runLog)).contains("`tidemark snapshot --config " + yaml + " --table public.orders`")
                .doesNotContain("<pipeline file>");
        Path snapshotLog = dir.resolve(logPrefix + "snapshot.log");
        assertThat(follow(snapshotLog, commands.get(1))).as(CaptureFixture.tail(snapshotLog)).isZero();
        await("the table's snapshot makes the target equal").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .failFast("tidemark " + commands.get(0) + " exited", () -> !run.isAlive())
                .until(() -> f.targetEqualsSource("id"));
        run.destroy();
        assertThat(run.waitFor(60, TimeUnit.SECONDS)).isTrue();
        if (capture != null) {
            capture.destroy();
            assertThat(capture.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        reconcileFindsNoDifference(yaml);
    }

    // ---- 7: a second run of the same pipeline

    /**
     * A second {@code run} of a running pipeline, from the same state folder and from another one, through the
     * launcher: refused within seconds naming who holds it, the running one undisturbed; the advice followed (stop
     * that process, start this one) runs it.
     */
    static void secondRun(OperatorActions s) throws Exception {
        CaptureFixture f = s.f;
        f.sql("CREATE TABLE public.tickets (id int PRIMARY KEY, note text)", "INSERT INTO tickets SELECT g, 'n' FROM generate_series(1, 20) g");
        Path yaml = f.writeYaml();
        Path firstLog = s.dir.resolve("first.log");
        Process first = f.spawnLauncher(firstLog, "run", "--config", yaml.toString());
        try {
            await("the first run streams").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                    .failFast("the first run exited", () -> !first.isAlive())
                    .until(() -> f.targetEqualsSource("id") && Files.exists(f.offsetsFile()) && s.slotActive());
        } catch (org.awaitility.core.ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
            throw new AssertionError(e.getMessage() + "; its log:\n" + CaptureFixture.tail(firstLog), e);
        }
        Path sameLog = s.dir.resolve("same-folder.log");
        int same = f.awaitExit(f.spawnLauncher(sameLog, "run", "--config", yaml.toString()), sameLog, Duration.ofSeconds(20),
                () -> "a second run from the same state folder kept trying");
        assertThat(s.stopped(sameLog, same, 3)).matches("tidemark: pipeline " + f.name + " is already running \\(PID \\d+ on host \\S+ holds "
                + Pattern.quote(s.dir.resolve("state").resolve(f.name + ".capture.lock").toString()) + "\\); nothing was changed: "
                + "stop that process before starting this one");
        Path other = Files.writeString(s.dir.resolve("other-folder.yaml"), Files.readString(yaml).replace("stateDir: state", "stateDir: state-other"));
        Path otherLog = s.dir.resolve("other-folder.log");
        int otherCode = f.awaitExit(f.spawnLauncher(otherLog, "run", "--config", other.toString()), otherLog, Duration.ofSeconds(20),
                () -> "a second run from another state folder kept trying");
        assertThat(s.stopped(otherLog, otherCode, 3)).matches("tidemark: pipeline " + f.name + " is already running \\(slot \"" + f.slot()
                + "\" held by PID \\d+ from host \\S+\\); nothing was changed: stop that process before starting this one");
        assertThat(s.dir.resolve("state-other")).as("nothing created for the refused run").doesNotExist();
        assertThat(first.isAlive()).as("the first run still runs; its log:%n%s", CaptureFixture.tail(firstLog)).isTrue();
        f.sql("INSERT INTO tickets VALUES (21, 'after')");
        await("the first run still captures").atMost(Duration.ofSeconds(60)).until(() -> f.targetEqualsSource("id"));

        first.destroy(); // "stop that process before starting this one"
        assertThat(first.waitFor(60, TimeUnit.SECONDS)).isTrue();
        Path againLog = s.dir.resolve("again.log");
        Process again = f.spawnLauncher(againLog, "run", "--config", yaml.toString());
        f.sql("INSERT INTO tickets VALUES (22, 'after the first stopped')");
        await("the refused run, started again once the first stopped, captures").atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(250)).failFast("the run exited", () -> !again.isAlive())
                .until(() -> f.targetEqualsSource("id"));
        again.destroy();
        assertThat(again.waitFor(60, TimeUnit.SECONDS)).isTrue();
        s.reconcileFindsNoDifference(yaml);
    }

    boolean slotActive() throws Exception {
        try (Statement st = f.source.createStatement();
             ResultSet rs = st.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = '" + f.slot() + "'")) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    // ---- 11: Ctrl-C during the initial snapshot

    /**
     * Ctrl-C (SIGINT) with part of 300,000 rows applied: exit 130 and one line saying the snapshot does not resume and
     * naming the re-snapshot alone; followed word for word after 10 rows were deleted at the source, its sweep removes
     * them and the target ends equal.
     */
    static void ctrlCDuringTheInitialSnapshot(OperatorActions s) throws Exception {
        CaptureFixture f = s.f;
        int rows = 300_000;
        f.sql("CREATE TABLE public.bulk (id int PRIMARY KEY, note text)",
                "INSERT INTO bulk SELECT g, repeat('x', 200) FROM generate_series(1, " + rows + ") g");
        Path yaml = f.writeYaml();
        Path log = s.dir.resolve("run.log");
        Process p = f.spawn(log, "run", "--config", yaml.toString());
        await("the snapshot has begun to arrive").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
                .failFast("tidemark run exited early", () -> !p.isAlive())
                .until(() -> s.targetRows() > 0);
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("exited after SIGINT").isTrue();
        assertThat(s.targetRows()).as("the stop came during the snapshot (rows applied)").isBetween(1, rows - 1);
        String line = s.stopped(log, p.exitValue(), 130, "stopped during its initial snapshot", "does not resume");
        List<String> commands = OperatorActionsCorpusIT.commands(line);
        assertThat(commands).as("the re-snapshot alone: its sweep removes the rows deleted meanwhile")
                .containsExactly("run --config " + yaml + " --resnapshot");

        f.sql("DELETE FROM bulk WHERE id <= 10"); // rows the first snapshot may have applied, gone from the source
        Path again = s.dir.resolve("resnapshot.log");
        Process q = f.spawn(again, commands.get(0).split(" "));
        await("the named command takes the snapshot again and removes the rows deleted meanwhile").atMost(Duration.ofSeconds(240))
                .pollInterval(Duration.ofMillis(500)).failFast("tidemark " + commands.get(0) + " exited", () -> !q.isAlive())
                .until(() -> f.targetEqualsSource("id"));
        q.destroy();
        assertThat(q.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(q.exitValue()).as("exit code; log:\n" + CaptureFixture.tail(again)).isZero();
        s.reconcileFindsNoDifference(yaml);
    }

    private int targetRows() {
        if (!Files.exists(dir.resolve("target.db"))) {
            return 0;
        }
        try (Connection c = DriverManager.getConnection(f.targetUrl()); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM bulk")) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (java.sql.SQLException e) {
            return 0;
        }
    }
}
