package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, the other way round: {@code tidemark run} whose capture stops within moments of the start (Debezium's
 * engine refuses {@code max.batch.size: 0}, passed through {@code source.debezium}, as it starts; a failing
 * {@code database.initial.statements} would not do: Debezium retries that for a minute) while the sink is starting, with 30 updates and 6 deletes waiting for the sink in Kafka. Each of {@link #RUNS} runs must end by itself
 * within {@link #PROMPT} with exit 3, one line and no stack trace; whatever the sink applied meanwhile is committed
 * with its offsets, so the same pipeline without the failing setting then captures a change made after them and ends
 * with a target equal to the source.
 */
class RunCaptureStopsAtStartIT {
    static final TableId ORDERS = new TableId("public", "orders");
    private static final int RUNS = 5;
    private static final Duration PROMPT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void runEndsWithCapturesLineEachTimeAndLosesNothingTheSinkApplied() throws Exception {
        try (CaptureFixture f = new CaptureFixture("run_capture_stop", dir, List.of(ORDERS))) {
            OperatorActions s = new OperatorActions(f);
            s.appliedThenCapturedAlone();
            Path good = f.writeYaml();
            Path bad = Files.writeString(dir.resolve("failing.yaml"), Files.readString(good).replace("  publication: pub_" + f.name + "\n",
                    "  publication: pub_" + f.name + "\n  debezium:\n    max.batch.size: 0\n"));
            List<String> took = new ArrayList<>();
            for (int i = 1; i <= RUNS; i++) {
                Path log = dir.resolve("run-" + i + ".log");
                long t0 = System.nanoTime();
                int exit = PromptExit.run(f, log, PROMPT, "run-capture-stop-" + i, "run", "--config", bad.toString());
                took.add(String.format("run %d: exit %d after %.1f s", i, exit, (System.nanoTime() - t0) / 1e9));
                String line = s.stopped(log, exit, 3);
                took.set(took.size() - 1, took.get(took.size() - 1) + ": " + line);
                assertThat(Files.readString(log)).as("run %d", i).doesNotContain("did not stop within");
                await("run " + i + ": the slot idle again").atMost(Duration.ofSeconds(30)).until(() -> !s.slotActive());
            }
            System.out.println("RunCaptureStopsAtStartIT: " + String.join("; ", took) + "; target equal to the source after them: "
                    + f.targetEqualsSource("id"));
            f.sql("UPDATE orders SET total = 7 WHERE id = 100"); // a change the failing runs cannot have captured
            Path log = dir.resolve("good.log");
            Process run = f.spawn(log, "run", "--config", good.toString());
            await("the pipeline without the failing setting ends equal").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark run exited: " + log, () -> !run.isAlive())
                    .until(() -> f.targetEqualsSource("id"));
            run.destroy();
            assertThat(run.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(run.exitValue()).as(CaptureFixture.tail(log)).isZero();
        }
    }
}
