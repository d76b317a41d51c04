package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21: {@code tidemark run} whose sink stops within moments of the start (its retention stop: the stored offset
 * is below the partition's earliest offset) while capture's embedded engine is still starting its tasks. Each of
 * {@link #RUNS} runs must end by itself within {@link #PROMPT} with exit 3, the sink's one line and no stack trace, and
 * leave the slot idle, so that the next run starts as before (a slot moved past capture's offsets would be refused). A run still
 * alive after {@link #PROMPT} has its threads dumped ({@code jcmd PID Thread.print}) into
 * {@code target/thread-dumps/} before it is killed.
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
            appliedThenCapturedAlone(f);
            try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", f.bootstrap))) {
                Map<TopicPartition, RecordsToDelete> all = new HashMap<>();
                f.endOffsets().forEach((tp, end) -> all.put(tp, RecordsToDelete.beforeOffset(end)));
                admin.deleteRecords(all).all().get(30, TimeUnit.SECONDS);
            }
            String file = f.writeYaml().toString();
            String slotBefore = f.slotConfirmedLsn();
            OperatorActions s = new OperatorActions(f);
            List<String> took = new ArrayList<>();
            for (int i = 1; i <= RUNS; i++) {
                Path log = dir.resolve("run-" + i + ".log");
                long t0 = System.nanoTime();
                int exit = runPromptly(f, log, i, "run", "--config", file);
                took.add(String.format("run %d: exit %d after %.1f s%s", i, exit, (System.nanoTime() - t0) / 1e9,
                        Files.readString(log).contains("interrupting it") ? " (engine thread interrupted)" : ""));
                s.stopped(log, exit, 3, "is below the earliest offset", "Nothing was skipped",
                        "`tidemark run --config " + file + " --accept-retention-gap`", "`tidemark snapshot --config " + file + " --table public.orders`");
                assertThat(Files.readString(log)).as("run %d: no refused close of a starting engine", i)
                        .doesNotContain("Cannot stop engine", "did not stop within");
                await("run " + i + ": the slot idle again").atMost(Duration.ofSeconds(30)).until(() -> !slotActive(f));
                took.set(took.size() - 1, took.get(took.size() - 1) + ", slot at " + f.slotConfirmedLsn() + " (before: " + slotBefore + ")");
                assertThat(f.offsetsFile()).as("run %d: capture's offsets kept", i).exists();
            }
            System.out.println("RunSinkStopsAtStartIT: " + String.join("; ", took));
        }
    }

    /** 120 rows captured and applied, stopped; then capture alone sends 30 updates and 6 deletes the sink never reads. */
    private static void appliedThenCapturedAlone(CaptureFixture f) throws Exception {
        f.sql("CREATE TABLE public.orders (id int PRIMARY KEY, total int)", "INSERT INTO orders SELECT g, g FROM generate_series(1, 120) g");
        Sidecar first = f.start(true, true);
        f.awaitTargetEqual(first, "id");
        first.close();
        long before = total(f.endOffsets());
        Sidecar captureOnly = f.start(true, false);
        f.sql("UPDATE orders SET total = 0 WHERE id <= 30", "DELETE FROM orders WHERE id BETWEEN 31 AND 36");
        await("capture sends the 36 changes the sink never reads").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .failFast("capture failed", () -> captureOnly.failure().isPresent())
                .until(() -> total(f.endOffsets()) >= before + 36);
        captureOnly.close();
    }

    private static long total(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Runs {@code tidemark ARGS…}; if it is alive after {@link #PROMPT}, dumps its threads twice, kills it and fails. */
    private static int runPromptly(CaptureFixture f, Path log, int run, String... args) throws Exception {
        Process p = f.spawn(log, args);
        if (p.waitFor(PROMPT.toSeconds(), TimeUnit.SECONDS)) {
            return p.exitValue();
        }
        List<Path> dumps = new ArrayList<>();
        dumps.add(threadDump(p, run, "a"));
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            dumps.add(threadDump(p, run, "b"));
        }
        p.destroyForcibly();
        throw new AssertionError("run " + run + ": tidemark " + String.join(" ", args) + " did not end within " + PROMPT.toSeconds()
                + " s; thread dumps " + dumps + "\n" + Files.readString(log));
    }

    private static Path threadDump(Process p, int run, String which) throws IOException, InterruptedException {
        Path out = Files.createDirectories(Path.of("target", "thread-dumps")).resolve("run-sink-stop-" + p.pid() + "-" + run + which + ".txt");
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(p.pid()), "Thread.print")
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        jcmd.waitFor(30, TimeUnit.SECONDS);
        return out.toAbsolutePath();
    }

    private static boolean slotActive(CaptureFixture f) throws Exception {
        try (var st = f.source.createStatement();
             var rs = st.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = '" + f.slot() + "'")) {
            return rs.next() && rs.getBoolean(1);
        }
    }
}
