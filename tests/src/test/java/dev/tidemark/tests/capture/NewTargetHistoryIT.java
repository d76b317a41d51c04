package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.debezium.CaptureChoice;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.connector.pipeline.SinkChoices;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.kafka.ReplayFrom;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new or emptied target (no stored offsets) is built from a topic only where the topic holds a complete history
 * from where the sink starts: from offset 0 when capture created the topic and took the initial snapshot into it,
 * from a re-snapshot's first offset after {@code --resnapshot}; after an accepted gap it is refused, naming the
 * topic, the partition and the command that rebuilds it.
 */
class NewTargetHistoryIT {
    static final TableId T = new TableId("public", "ledger");

    @TempDir
    Path dir;

    @Test
    void aNewTargetAfterAnAcceptedGapIsRefusedAndTheCommandTheLineNamesEndsEqual() throws Exception {
        try (CaptureFixture f = new CaptureFixture("new_target_gap", dir, List.of(T))) {
            f.sql("CREATE TABLE public.ledger (id int PRIMARY KEY, amount int)",
                    "INSERT INTO ledger SELECT g, g FROM generate_series(1, 200) g");
            Sidecar first = f.start(true, true);
            f.awaitTargetEqual(first, "id");
            first.close();
            acceptGapDeleting(f, "id BETWEEN 51 AND 100");

            deleteTarget(f);
            Path yaml = f.writeYaml();
            Path refused = dir.resolve("refused.log");
            int code = f.awaitExit(f.spawn(refused, "run", "--config", yaml.toString()), refused, Duration.ofSeconds(60),
                    () -> "it rebuilt the new target from the topics' beginning, across the accepted gap; target vs source: "
                            + f.compareSummary("id"));
            String output = Files.readString(refused);
            assertThat(code).as("exit code of the refused start; log:\n" + output).isEqualTo(3);
            List<String> errors = CaptureFixture.errorLines(refused);
            assertThat(errors).as("one error line; log:\n" + output).hasSize(1);
            System.out.println("refused with exit " + code + ": " + errors.get(0));
            assertThat(errors.get(0)).contains("topic " + f.config().topicFor(T) + " partition ", "gap");
            assertThat(CaptureFixture.stackTraceLines(refused)).as("no stack trace").isEmpty();
            assertThat(f.targetEqualsSource("id")).as("nothing of the topic applied").isFalse();

            // the way on, word for word
            String command = wayOn(errors.get(0));
            assertThat(command).isEqualTo("tidemark run --config " + yaml + " --resnapshot");
            Path rebuilt = dir.resolve("rebuilt.log");
            Process p = f.spawn(rebuilt, command.substring("tidemark ".length()).split(" "));
            try {
                await("the target rebuilt by `" + command + "` equals the source").atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(250)).failFast(command + " exited", () -> !p.isAlive())
                        .until(() -> f.targetEqualsSource("id"));
            } catch (org.awaitility.core.TerminalFailureException | org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError(e.getMessage() + "; target vs source: " + f.compareSummary("id") + "\n--- last lines of "
                        + rebuilt + " ---\n" + CaptureFixture.tail(rebuilt), e);
            }
            p.destroy();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("exit code after SIGTERM; log:\n" + CaptureFixture.tail(rebuilt)).isZero();
        }
    }

    @Test
    void aNewTargetOnTopicsCompleteFromOffsetZeroReplaysThemAndEndsEqual() throws Exception {
        try (CaptureFixture f = new CaptureFixture("new_target_full", dir, List.of(T))) {
            f.sql("CREATE TABLE public.ledger (id int PRIMARY KEY, amount int)",
                    "INSERT INTO ledger SELECT g, g FROM generate_series(1, 200) g");
            Sidecar first = f.start(true, true);
            f.sql("UPDATE ledger SET amount = -amount WHERE id <= 50", "DELETE FROM ledger WHERE id BETWEEN 51 AND 100");
            f.awaitTargetEqual(first, "id");
            first.close();

            deleteTarget(f);
            Sidecar again = f.start(true, true);
            f.awaitTargetEqual(again, "id");
            assertThat(again.failure()).as("the new target was not refused").isEmpty();
        }
    }

    @Test
    void aNewTargetAfterAResnapshotStartsAtTheResnapshotAndEndsEqual() throws Exception {
        try (CaptureFixture f = new CaptureFixture("new_target_resnap", dir, List.of(T))) {
            f.sql("CREATE TABLE public.ledger (id int PRIMARY KEY, amount int)",
                    "INSERT INTO ledger SELECT g, g FROM generate_series(1, 200) g");
            Sidecar first = f.start(true, true);
            f.awaitTargetEqual(first, "id");
            first.close();
            acceptGapDeleting(f, "id BETWEEN 51 AND 100");
            Map<TopicPartition, Long> beforeResnapshot = f.endOffsets();

            Sidecar resnapshot = Sidecar.start(f.config(), true, false, new ReplayFrom.Stored(), CaptureChoice.RESNAPSHOT, null,
                    SinkChoices.DEFAULT);
            try {
                await("the re-snapshot's 151 rows in the topics").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                        .until(() -> f.opsSince(beforeResnapshot).stream().filter("r"::equals).count() >= 151);
            } finally {
                resnapshot.close();
            }

            deleteTarget(f);
            // from offset 0 the rows deleted in the gap would come back: equal only when it starts at the re-snapshot
            Sidecar sink = f.start(false, true);
            try {
                f.awaitTargetEqual(sink, "id");
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError(e.getMessage() + "; target vs source: " + f.compareSummary("id"), e);
            }
        }
    }

    /**
     * Makes an accepted gap: capture is stopped, its slot dropped, rows matching {@code where} deleted, and capture runs
     * once with {@code --accept-gap} (a new slot, streaming from now, until a change made after it reached the target).
     * (A slot advanced past the deletes makes the same gap; Debezium then sometimes refuses the kept offsets at start,
     * "Last recorded offset is no longer available on the server", which is not what this test is about.)
     */
    private static void acceptGapDeleting(CaptureFixture f, String where) throws Exception {
        try (PreparedStatement ps = f.source.prepareStatement("SELECT pg_drop_replication_slot(?)")) {
            ps.setString(1, f.slot());
            ps.execute();
        }
        f.sql("DELETE FROM ledger WHERE " + where);
        Sidecar gap = Sidecar.start(f.config(), true, true, new ReplayFrom.Stored(), CaptureChoice.ACCEPT_GAP, null, SinkChoices.DEFAULT);
        try {
            // the new slot is created when the engine's task starts: a change before that would fall into the gap too
            await("--accept-gap streaming from its new slot").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .failFast("pipeline failed", () -> gap.failure().isPresent())
                    .until(() -> gap.capture().orElseThrow().isStreaming());
            f.sql("INSERT INTO ledger VALUES (1000, 1000)");
            await("--accept-gap streams the change after the slot's position").atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250)).failFast("pipeline failed", () -> gap.failure().isPresent())
                    .until(() -> count(f, "id = 1000") == 1);
        } finally {
            gap.close();
        }
        assertThat(count(f, where)).as("the old target keeps the rows deleted in the gap").isEqualTo(50);
    }

    /** The target's SQLite file deleted while the pipeline is stopped (a new, empty target). */
    private static void deleteTarget(CaptureFixture f) throws Exception {
        Path db = Path.of(f.targetUrl().substring("jdbc:sqlite:".length()));
        for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
            Files.deleteIfExists(db.resolveSibling(db.getFileName() + suffix));
        }
    }

    /** The one command in backticks that the line names as the way on. */
    private static String wayOn(String line) {
        Matcher m = Pattern.compile("`(tidemark [^`]+)`").matcher(line);
        List<String> commands = new ArrayList<>();
        while (m.find()) {
            commands.add(m.group(1));
        }
        assertThat(commands).as("commands named by: " + line).hasSize(1);
        return commands.get(0);
    }

    private static int count(CaptureFixture f, String where) {
        try (var c = java.sql.DriverManager.getConnection(f.targetUrl()); var s = c.createStatement();
             var rs = s.executeQuery("SELECT count(*) FROM ledger WHERE " + where)) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (java.sql.SQLException e) {
            return -1;
        }
    }
}
