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
 * Issue 21: {@code tidemark run} whose sink stops within moments of the start (its retention stop: the stored offset
 * is below the partition's earliest offset) while capture's embedded engine is still starting its tasks. Each of
 * {@link #RUNS} runs must end by itself within {@link #PROMPT} with exit 3, the sink's one line and no stack trace, and
 * leave the slot idle, so that the next run starts as before (a slot moved past capture's offsets would be refused).
 * A run still alive after {@link #PROMPT} has its threads dumped ({@link PromptExit}).
 */
class RunSinkStopsAtStartIT {
    static final TableId ORDERS = new TableId("public", "orders");
    private static final int RUNS = 5;
    private static final Duration PROMPT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void runEndsWithTheSinksLineEachTime() throws Exception {
        try (CaptureFixture f = new CaptureFixture("run_sink_stop", dir, List.of(ORDERS))) {
            OperatorActions s = new OperatorActions(f);
            s.appliedThenCapturedAlone();
            s.retentionDeletesAll();
            String file = f.writeYaml().toString();
            String slotBefore = f.slotConfirmedLsn();
            List<String> took = new ArrayList<>();
            for (int i = 1; i <= RUNS; i++) {
                Path log = dir.resolve("run-" + i + ".log");
                long t0 = System.nanoTime();
                int exit = PromptExit.run(f, log, PROMPT, "run-sink-stop-" + i, "run", "--config", file);
                took.add(String.format("run %d: exit %d after %.1f s%s", i, exit, (System.nanoTime() - t0) / 1e9,
                        Files.readString(log).contains("interrupting it") ? " (engine thread interrupted)" : ""));
                s.stopped(log, exit, 3, "is below the earliest offset", "Nothing was skipped",
                        "`tidemark run --config " + file + " --accept-retention-gap`", "`tidemark snapshot --config " + file + " --table public.orders`");
                assertThat(Files.readString(log)).as("run %d: no refused close of a starting engine", i)
                        .doesNotContain("Cannot stop engine", "did not stop within");
                await("run " + i + ": the slot idle again").atMost(Duration.ofSeconds(30)).until(() -> !s.slotActive());
                took.set(took.size() - 1, took.get(took.size() - 1) + ", slot at " + f.slotConfirmedLsn() + " (before: " + slotBefore + ")");
                assertThat(f.offsetsFile()).as("run %d: capture's offsets kept", i).exists();
            }
            System.out.println("RunSinkStopsAtStartIT: " + String.join("; ", took));
        }
    }
}
