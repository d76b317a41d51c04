package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 item 5: a topic deleted while the pipeline is stopped (then re-created by capture, holding only the changes
 * made since) leaves the target's stored offsets past the topic's end. The sink refuses, naming topic, partition and
 * both offsets; {@code tidemark status} must show that as a problem (exit 3), not as "total lag: 0 events"; and the way
 * on the refusal names for the table whose topic it is — {@code tidemark run --config FILE --accept-retention-gap},
 * then, while it runs, {@code tidemark snapshot --config FILE --table public.accounts} — must work, followed word for
 * word. The deleted topic held changes the target never applied (10 updates, 4 deletes): the re-snapshot rewrites
 * the rows and its sweep removes the deleted ones, while the other table ({@code public.others}, whose topic is
 * intact) streams on. At the end reconcile finds no difference, the target equals the source and {@code run} goes on;
 * the gap is recorded in the target ({@code tidemark_retention_gaps}) and named by a WARN line.
 */
class TopicRecreatedIT {
    static final TableId T = new TableId("public", "accounts");
    static final TableId O = new TableId("public", "others");

    @TempDir
    Path dir;

    @Test
    void aStoredOffsetPastTheEndOfAReCreatedTopicIsAProblemAndTheAdvisedWayOnWorks() throws Exception {
        try (CaptureFixture f = new CaptureFixture("topic_recreated", dir, List.of(T, O))) {
            f.sql("CREATE TABLE public.accounts (id int PRIMARY KEY, balance int)",
                    "CREATE TABLE public.others (id int PRIMARY KEY, note text)",
                    "INSERT INTO accounts SELECT g, g FROM generate_series(1, 400) g",
                    "INSERT INTO others SELECT g, 'o' || g FROM generate_series(1, 50) g",
                    "UPDATE accounts SET balance = balance + 1");
            Sidecar first = f.start(true, true);
            f.awaitTargetEqual(first, "id");
            first.close();
            String topic = f.config().topicFor(T);
            // changes the target never applies: captured into the old topic by capture alone, then the topic is deleted
            long before = totalEnd(f, List.of(topic));
            Sidecar captureOnly = f.start(true, false);
            f.sql("DELETE FROM accounts WHERE id BETWEEN 37 AND 40", "UPDATE accounts SET balance = 77 WHERE id BETWEEN 41 AND 50");
            await("capture sends 18 records the sink never reads").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .failFast("capture failed", () -> captureOnly.failure().isPresent())
                    .until(() -> totalEnd(f, List.of(topic)) >= before + 18);
            String afterChanges = f.walLsn();
            await("capture confirms the changes on the slot (so it does not send them again)").atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250)).failFast("capture failed", () -> captureOnly.failure().isPresent())
                    .until(() -> f.slotConfirmedPast(afterChanges));
            captureOnly.close();
            try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", f.bootstrap))) {
                admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
                await("topic deleted").atMost(Duration.ofSeconds(30))
                        .until(() -> !admin.listTopics().names().get(10, TimeUnit.SECONDS).contains(topic));
            }
            f.sql("UPDATE accounts SET balance = 0 WHERE id <= 30", "DELETE FROM accounts WHERE id BETWEEN 31 AND 36");
            Path yaml = f.writeYaml();

            // capture alone re-creates the topic with the 36 changes (30 updates, 6 deletes and their tombstones)
            Path captured = dir.resolve("capture.log");
            Process capture = f.spawn(captured, "capture", "--config", yaml.toString());
            try {
                await("capture re-creates the topic with 42 records").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                        .failFast("tidemark capture exited", () -> !capture.isAlive())
                        .until(() -> totalEnd(f, List.of(topic)) == 42);
            } catch (org.awaitility.core.TerminalFailureException | org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError(e.getMessage() + "\n--- last lines of " + captured + " ---\n" + CaptureFixture.tail(captured), e);
            }
            stop(capture, captured);

            Path status = dir.resolve("status.log");
            int statusCode = f.runToEnd(status, "status", "--config", yaml.toString());
            String statusOut = Files.readString(status);
            System.out.println(statusOut);
            assertThat(statusCode).as("status exit code; output:\n" + statusOut).isEqualTo(3);
            assertThat(statusOut).contains("is past the end offset").contains("total lag: unknown").doesNotContain("total lag: 0 events")
                    .contains("`tidemark snapshot --config " + yaml + " --table public.accounts`");

            Path refused = dir.resolve("refused.log");
            String slotBefore = f.slotConfirmedLsn();
            int code = f.awaitExit(f.spawn(refused, "run", "--config", yaml.toString()), refused, Duration.ofSeconds(90),
                    () -> "run did not stop; target vs source: " + f.compareSummary("id"));
            assertThat(code).as("exit code; log:\n" + CaptureFixture.tail(refused)).isEqualTo(3);
            List<String> errors = CaptureFixture.errorLines(refused);
            assertThat(errors).as("one error line; log:\n" + CaptureFixture.tail(refused)).hasSize(1);
            String line = errors.get(0);
            System.out.println("refused: " + line);
            assertThat(line).contains("topic " + topic + " partition ").contains("is past the end offset")
                    .doesNotContain(f.config().topicFor(O)).doesNotContain("reconcile");
            assertThat(CaptureFixture.stackTraceLines(refused)).as("no stack trace").isEmpty();
            assertThat(f.slotConfirmedLsn()).as("the refused run changed nothing on the source").isEqualTo(slotBefore);

            // the way on, word for word
            String acceptCommand = command(line, "--accept-retention-gap");
            String snapshotCommand = command(line, "--table");
            assertThat(acceptCommand).isEqualTo("run --config " + yaml + " --accept-retention-gap");
            assertThat(snapshotCommand).isEqualTo("snapshot --config " + yaml + " --table public.accounts");

            Path accepted = dir.resolve("accept.log");
            Process run = f.spawn(accepted, acceptCommand.split(" "));
            await("the advised run applies the re-created topic").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark " + acceptCommand + " exited", () -> !run.isAlive())
                    .until(() -> count(f, "SELECT count(*) FROM accounts WHERE id <= 30 AND balance = 0") == 30);
            assertThat(count(f, "SELECT count(*) FROM accounts WHERE id BETWEEN 37 AND 40")).as("rows deleted in the lost records")
                    .isEqualTo(4);
            Path snapshot = dir.resolve("snapshot.log");
            assertThat(f.runToEnd(snapshot, snapshotCommand.split(" "))).as(Files.readString(snapshot)).isZero();
            f.sql("UPDATE others SET note = 'streams on' WHERE id <= 5", "UPDATE accounts SET balance = 5 WHERE id = 1");
            await("the re-snapshot repairs accounts while others streams on").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark " + acceptCommand + " exited", () -> !run.isAlive())
                    .until(() -> f.targetEqualsSource("id"));
            stop(run, accepted);
            assertThat(Files.readString(accepted).lines().filter(l -> l.contains("WARN") && l.contains("accepted retention gap")))
                    .as("WARN line naming topic, partition and both offsets; log:\n" + CaptureFixture.tail(accepted))
                    .anySatisfy(l -> assertThat(l).contains("topic " + topic + " partition ")
                            .containsPattern("from offset \\d+ to offset \\d+"));
            assertThat(gapRows(f)).as("gaps recorded in the target").isPositive();

            Path reconcile = dir.resolve("reconcile.log");
            int differences = f.runToEnd(reconcile, "reconcile", "--config", yaml.toString(), "--settle", "1s");
            assertThat(differences).as("reconcile finds no difference; log:\n" + CaptureFixture.tail(reconcile)).isZero();
            assertThat(f.targetEqualsSource("id")).as(f.compareSummary("id")).isTrue();

            Path again = dir.resolve("again.log");
            Process next = f.spawn(again, "run", "--config", yaml.toString());
            f.sql("UPDATE accounts SET balance = -1 WHERE id = 400", "INSERT INTO accounts VALUES (401, 401)");
            await("run goes on after the way on").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark run exited", () -> !next.isAlive())
                    .until(() -> f.targetEqualsSource("id"));
            Path status2 = dir.resolve("status2.log");
            assertThat(f.runToEnd(status2, "status", "--config", yaml.toString())).as(Files.readString(status2)).isZero();
            next.destroy();
            assertThat(next.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(next.exitValue()).as("exit code; log:\n" + CaptureFixture.tail(again)).isZero();
        }
    }

    private static int count(CaptureFixture f, String sql) {
        try (Connection c = DriverManager.getConnection(f.targetUrl()); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getInt(1) : -1;
        } catch (java.sql.SQLException e) {
            return -1;
        }
    }

    /** The backticked {@code tidemark …} command of {@code line} that contains {@code part}, without "tidemark ". */
    private static String command(String line, String part) {
        Matcher m = Pattern.compile("`tidemark ([^`]*)`").matcher(line);
        while (m.find()) {
            if (m.group(1).contains(part)) {
                return m.group(1);
            }
        }
        throw new AssertionError("the line names no command with " + part + ": " + line);
    }

    private static void stop(Process p, Path log) throws InterruptedException {
        p.destroy();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exited within 60 s after SIGTERM; log:\n" + CaptureFixture.tail(log)).isTrue();
        assertThat(p.exitValue()).as("exit code after SIGTERM; log:\n" + CaptureFixture.tail(log)).isZero();
    }

    /** The sum of the topics' end offsets, read through the admin API (a consumer would auto-create a missing topic). */
    private static long totalEnd(CaptureFixture f, List<String> topics) throws Exception {
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", f.bootstrap))) {
            Set<String> names = admin.listTopics().names().get(10, TimeUnit.SECONDS);
            if (!names.containsAll(topics)) {
                return -1;
            }
            Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> query = new java.util.HashMap<>();
            admin.describeTopics(topics).allTopicNames().get(10, TimeUnit.SECONDS).forEach((t, d) -> d.partitions()
                    .forEach(p -> query.put(new org.apache.kafka.common.TopicPartition(t, p.partition()),
                            org.apache.kafka.clients.admin.OffsetSpec.latest())));
            return admin.listOffsets(query).all().get(10, TimeUnit.SECONDS).values().stream().mapToLong(i -> i.offset()).sum();
        }
    }

    private static int gapRows(CaptureFixture f) {
        try (Connection c = DriverManager.getConnection(f.targetUrl()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM tidemark_retention_gaps WHERE pipeline = '" + f.name + "'")) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (java.sql.SQLException e) {
            return -1;
        }
    }
}
