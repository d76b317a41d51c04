package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import dev.tidemark.reconcile.ComparisonResult;
import dev.tidemark.tests.capture.TopologyRounds.Kill;
import dev.tidemark.tests.capture.TopologyRounds.Round;
import dev.tidemark.tests.sink.TargetDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Topology changes with {@code kill -9} of {@code tidemark run} between them ({@link TopologyRounds}): on one pipeline
 * per target, each round runs changes, the topology change and more changes, kills the process at the round's point
 * (right after the commit; or while stopped, then once more during the added table's incremental snapshot) and starts
 * it again. Either the change is followed (the target then equals the source in every value) or the start stops with
 * exactly the round's one line and no stack trace; the line's command is then run word for word, capture started
 * again, and the target must equal the source. A table no longer captured keeps its target rows (only the rows the
 * source got afterwards are missing). At the end {@code tidemark reconcile} finds no difference.
 *
 * <p>Short form (the suite): six rounds into SQLite. Long form ({@code bench/topology-changes.sh}, property
 * {@value #LONG}): every case of docs/schema-changes.md's topology tables, into SQLite, PostgreSQL and MariaDB. Stress
 * form (property {@value #ADDED_KILLS}{@code =N}): N tables added in turn, each killed during its snapshot, into SQLite.
 */
class TopologyChangeKillIT {
    static final String LONG = "tidemark.topology-kill.long";
    /** Stress form: this many tables added one after another, each killed during its incremental snapshot. */
    static final String ADDED_KILLS = "tidemark.topology-kill.added-kills";
    static final List<TableId> INITIAL_SHORT = List.of(TopologyRounds.OTHER, TopologyRounds.REC, TopologyRounds.M, TopologyRounds.IDENT);
    static final List<TableId> INITIAL_LONG = List.of(TopologyRounds.OTHER, TopologyRounds.REC, TopologyRounds.TRUNC,
            TopologyRounds.M, TopologyRounds.IDENT);

    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void killNineAroundTopologyChangesLosesNothing() throws Exception {
        int addedKills = Integer.getInteger(ADDED_KILLS, 0);
        if (addedKills > 0) {
            try (TargetDatabase sqlite = TargetDatabase.sqlite()) {
                new Pipeline(sqlite, dir, INITIAL_SHORT).run(TopologyRounds.addedKills(INITIAL_SHORT, addedKills));
            }
            return;
        }
        if (!Boolean.getBoolean(LONG)) {
            try (TargetDatabase sqlite = TargetDatabase.sqlite()) {
                new Pipeline(sqlite, dir, INITIAL_SHORT).run(TopologyRounds.shortForm(INITIAL_SHORT));
            }
            return;
        }
        for (TargetDatabase target : List.of(TargetDatabase.sqlite(), TargetDatabase.postgres(), TargetDatabase.mariadb())) {
            try (target) {
                new Pipeline(target, dir.resolve(target.name()), INITIAL_LONG).run(TopologyRounds.longForm(INITIAL_LONG));
            }
        }
    }

    /** One pipeline into one target, spawned as {@code tidemark run}, through the rounds one after another. */
    private static final class Pipeline {
        private final TargetDatabase target;
        private final Path dir;
        private List<TableId> captured;
        private final List<TableId> uncaptured = new ArrayList<>();
        private int runs;
        private int killsDuringSnapshots;
        private TopologyWorld world;

        Pipeline(TargetDatabase target, Path dir, List<TableId> initial) {
            this.target = target;
            this.dir = dir;
            this.captured = initial;
        }

        void run(List<Round> rounds) throws Exception {
            Files.createDirectories(dir);
            try (CaptureFixture f = new CaptureFixture("topo_kill", dir, captured, target)) {
                TopologyWorld w = new TopologyWorld(f, target);
                world = w;
                f.sql(TopologyRounds.setup().toArray(String[]::new));
                Path yaml = writeYaml(f);
                Process p = start(f, yaml);
                awaitEqual(w, p, "the first run");
                for (Round round : rounds) {
                    p = round(f, w, yaml, p, round);
                }
                p.destroy();
                p.waitFor();
                Path log = dir.resolve("reconcile.log");
                assertThat(f.runToEnd(log, "reconcile", "--config", yaml.toString(), "--settle", "1s", "--no-progress"))
                        .as("tidemark reconcile after %d rounds into %s:%n%s", rounds.size(), target.name(), Files.readString(log)).isZero();
            }
        }

        /** Runs one round and returns the running {@code tidemark run} it leaves, the target equal to the source. */
        private Process round(CaptureFixture f, TopologyWorld w, Path yaml, Process p, Round round) throws Exception {
            String what = "round '" + round.name() + "' into " + target.name();
            if (round.kill() != Kill.AFTER_COMMIT) {
                kill(p);
            }
            f.sql("INSERT INTO tk_other SELECT max(id) + 1, 'before " + round.name() + "' FROM tk_other");
            if (round.kill() == Kill.AFTER_COMMIT && round.line() != null) {
                awaitStoredPastNow(f, p, what);
            }
            f.sql(round.before().toArray(String[]::new));
            f.sql(round.change().toArray(String[]::new));
            f.sql(round.after().toArray(String[]::new));
            f.sql("INSERT INTO tk_other SELECT max(id) + 1, 'after " + round.name() + "' FROM tk_other");
            if (round.kill() == Kill.AFTER_COMMIT) {
                kill(p);
            }
            if (round.tables() != null) {
                captured.stream().filter(t -> !round.tables().contains(t)).forEach(uncaptured::add);
                captured = round.tables();
                writeYaml(f);
            }
            Process next = start(f, yaml);
            if (round.kill() == Kill.DURING_ADDED_SNAPSHOT) {
                // the first such kill comes with the first rows in the target; each later one further into the snapshot
                long afterRows = (long) (killsDuringSnapshots++ % 5) * (TopologyRounds.ADDED_ROWS / 6);
                awaitSnapshotUnderWay(f, next, what, round.tables().get(round.tables().size() - 1), afterRows);
                kill(next);
                next = start(f, yaml);
            }
            if (round.line() != null) {
                next = followTheLine(f, yaml, next, round, what);
            }
            awaitEqual(w, next, what);
            return next;
        }

        /**
         * Waits until capture stored offsets past everything committed so far, so that a snapshot an earlier round's
         * line requested lies behind the position the next start resumes from: the round's stop is then the one outcome
         * (from before it, the start would take the snapshot again, which rightly lets it follow the change instead).
         */
        private void awaitStoredPastNow(CaptureFixture f, Process p, String what) throws java.sql.SQLException {
            String now = f.walLsn();
            await(what + ": capture stored offsets past " + now).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .failFast("tidemark run exited: " + log(runs), () -> !p.isAlive())
                    .until(() -> f.slotConfirmedPast(now));
        }

        /** Asserts the stop the round names, runs the line's command word for word and starts capture again. */
        private Process followTheLine(CaptureFixture f, Path yaml, Process p, Round round, String what) throws Exception {
            Path log = log(runs);
            int exit = f.awaitExit(p, log, Duration.ofSeconds(90), () -> world.summary(captured));
            assertThat(exit).as("%s: exit code; %s", what, CaptureFixture.tail(log)).isEqualTo(round.exit());
            String details = CaptureFixture.libraryDetails(log);
            if (!details.isEmpty()) {
                System.out.println(what + ": the stop line names library detail (kept in this test's output):" + details);
            }
            assertThat(CaptureFixture.errorLines(log).stream().map(CaptureFixture::withoutLibraryDetail))
                    .as("%s%s", what, details).containsExactly(round.line().replace("FILE", yaml.toString()));
            assertThat(CaptureFixture.stackTraceLines(log)).as(what + ": no stack trace").isEmpty();
            String line = CaptureFixture.errorLines(log).get(0);
            if (line.contains("`tidemark snapshot ")) {
                return f.spawn(log(++runs), SchemaChangeStopRecoveryIT.snapshotAsTheLineSays(f, line, yaml));
            }
            if (line.contains("`tidemark ")) {
                String[] command = SchemaChangeStopRecoveryIT.command(line);
                Path commandLog = dir.resolve("command-" + runs + ".log");
                assertThat(f.runToEnd(commandLog, command)).as("%s: %s%n%s", what, String.join(" ", command), Files.readString(commandLog))
                        .isZero();
            } else {
                f.sql(line.substring(line.indexOf(": run ") + ": run ".length(), line.indexOf(" or remove ")));
            }
            return start(f, yaml); // "then start capture again"
        }

        private void awaitSnapshotUnderWay(CaptureFixture f, Process p, String what, TableId added, long afterRows) {
            try {
                awaitRowsBetween(f, p, what, added, afterRows);
            } catch (org.awaitility.core.ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
                throw new AssertionError(e.getMessage() + "\ntarget rows of " + added + ": " + targetRows(f, target, added)
                        + "\n--- last lines of " + log(runs) + " ---\n" + CaptureFixture.tail(log(runs)), e);
            }
        }

        private void awaitRowsBetween(CaptureFixture f, Process p, String what, TableId added, long afterRows) {
            await(what + ": the added table's incremental snapshot under way").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(20)).failFast("tidemark run exited: " + log(runs), () -> !p.isAlive())
                    .until(() -> {
                        long rows = targetRows(f, target, added);
                        return rows > afterRows && rows < TopologyRounds.ADDED_ROWS;
                    });
        }

        private void awaitEqual(TopologyWorld w, Process p, String what) throws SQLException {
            try {
                await(what + ": target equal to source " + captured).atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(300))
                        .failFast("tidemark run exited: " + log(runs), () -> !p.isAlive())
                        .until(() -> captured.stream().allMatch(w::equal));
            } catch (org.awaitility.core.ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
                throw new AssertionError(e.getMessage() + "\n" + w.summary(captured) + "\n--- last lines of " + log(runs) + " ---\n"
                        + CaptureFixture.tail(log(runs)), e);
            }
            // a target that equals the source while records are still to be applied (a backlog a stop left) is no proof
            await(what + ": the sink applied every record of the captured topics").atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(300)).failFast("tidemark run exited: " + log(runs), () -> !p.isAlive())
                    .ignoreExceptions().until(() -> drained(w.f));
            assertThat(captured.stream().filter(t -> !w.equal(t)).toList()).as("%s: once drained: %s", what, w.summary(captured)).isEmpty();
            for (TableId t : uncaptured) {
                ComparisonResult c = w.compare(t);
                assertThat(c.surplus()).as("%s: %s no longer captured keeps its rows: %s", what, t, c).isEmpty();
                assertThat(c.changed()).as("%s: %s no longer captured keeps its rows: %s", what, t, c).isEmpty();
                assertThat(c.missing()).as("%s: %s misses only the rows written since: %s", what, t, c)
                        .containsExactlyInAnyOrderElementsOf(uncapturedKeys(w.f, t));
            }
        }

        /** Whether the target's stored offsets reached the end of every partition of the captured tables' topics. */
        private boolean drained(CaptureFixture f) throws SQLException {
            List<org.apache.kafka.common.TopicPartition> partitions = new ArrayList<>();
            java.util.Map<org.apache.kafka.common.TopicPartition, Long> ends;
            try (org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> c = dev.tidemark.tests.KafkaTopics.consumer(f.bootstrap)) {
                for (TableId t : captured) {
                    String topic = f.name + "." + t.schema() + "." + t.table();
                    List<org.apache.kafka.common.PartitionInfo> infos = c.partitionsFor(topic, Duration.ofSeconds(10));
                    (infos == null ? List.<org.apache.kafka.common.PartitionInfo>of() : infos)
                            .forEach(pi -> partitions.add(new org.apache.kafka.common.TopicPartition(topic, pi.partition())));
                }
                ends = c.endOffsets(partitions, Duration.ofSeconds(10));
            }
            java.util.Map<org.apache.kafka.common.TopicPartition, Long> stored = new java.util.HashMap<>();
            try (java.sql.Connection t = f.connectTarget(); java.sql.PreparedStatement ps = t.prepareStatement(
                    "SELECT topic, " + target.quotes().quote("partition") + ", next_offset FROM tidemark_offsets WHERE pipeline = ?")) {
                ps.setString(1, f.name);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        stored.put(new org.apache.kafka.common.TopicPartition(rs.getString(1), rs.getInt(2)), rs.getLong(3));
                    }
                }
            }
            return ends.entrySet().stream().allMatch(e -> e.getValue() == 0 || stored.getOrDefault(e.getKey(), 0L) >= e.getValue());
        }

        private Process start(CaptureFixture f, Path yaml) throws Exception {
            return f.spawn(log(++runs), "run", "--config", yaml.toString());
        }

        private Path log(int run) {
            return dir.resolve("run-" + run + ".log");
        }

        /** The fixture's pipeline file with {@link #captured} as {@code source.tables} and truncates applied. */
        private Path writeYaml(CaptureFixture f) throws Exception {
            Path yaml = f.writeYaml();
            List<String> names = captured.stream().map(TableId::toString).toList();
            String text = Files.readString(yaml).replaceFirst("(?m)^  tables: \\[.*]$", "  tables: [" + String.join(", ", names) + "]")
                    .replace("  batchSize: 500\n", "  batchSize: 500\n  applyTruncate: true\n");
            Files.writeString(yaml, text);
            return yaml;
        }

    }

    private static void kill(Process p) throws InterruptedException {
        p.destroyForcibly(); // SIGKILL
        p.waitFor();
    }

    private static long targetRows(CaptureFixture f, TargetDatabase target, TableId t) {
        try {
            return Long.parseLong(f.targetColumn("SELECT count(*) FROM " + target.quotes().quote(t.table())).get(0));
        } catch (SQLException | RuntimeException e) {
            return 0; // not created yet, or busy
        }
    }

    private static List<String> uncapturedKeys(CaptureFixture f, TableId t) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = f.source.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM \"" + t.schema() + "\".\"" + t.table() + "\" WHERE note LIKE 'uncaptured%' ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
