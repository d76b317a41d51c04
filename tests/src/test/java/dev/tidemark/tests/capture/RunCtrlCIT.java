package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 8: Ctrl-C (SIGINT) of {@code tidemark run} drains like SIGTERM, then exits 130 (the convention for
 * Ctrl-C) without stack traces or error lines; SIGTERM keeps exit 0 ({@code SidecarSigtermIT}).
 */
class RunCtrlCIT {
    static final TableId T = new TableId("public", "parcels");

    @TempDir
    Path dir;

    @Test
    void ctrlCDrainsQuietlyAndExits130() throws Exception {
        try (CaptureFixture f = new CaptureFixture("run_ctrlc", dir, List.of(T))) {
            f.sql("CREATE TABLE public.parcels (id int PRIMARY KEY, status text)",
                    "INSERT INTO parcels SELECT g, 'new' FROM generate_series(1, 200) g");
            Path yaml = f.writeYaml();
            Path log = dir.resolve("run.log");
            Process p = f.spawn(log, "run", "--config", yaml.toString());
            await("tidemark run applied the snapshot").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark run exited early", () -> !p.isAlive())
                    .until(() -> f.targetEqualsSource("id"));
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).inheritIO().start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exited within 60 s after SIGINT").isTrue();
            String out = Files.readString(log);
            System.out.println("tidemark run after SIGINT, exit " + p.exitValue() + ":\n" + out);
            assertThat(p.exitValue()).as("exit code; log:\n" + out).isEqualTo(130);
            assertThat(CaptureFixture.stackTraceLines(log)).isEmpty();
            assertThat(out.lines().filter(l -> l.contains(" ERROR ")).toList()).isEmpty();
            assertThat(out).contains("stop requested: draining");
        }
    }
}
