package dev.tidemark.tests.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.tests.ChildJvm;
import dev.tidemark.tests.TestInfrastructure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 8: Ctrl-C of {@code tidemark demo} ended with exit 3, Debezium's snapshot error and two
 * {@code InterruptedException} stack traces; after {@code kill -9} its temporary folder (with Kafka's logs) stayed
 * behind for good. Now SIGINT is a quiet stop with exit 130, and the next demo removes the folders of earlier demos
 * whose process is dead. Each demo runs as a child JVM with its own {@code java.io.tmpdir}.
 */
class DemoInterruptIT {
    @TempDir
    Path dir;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (Process p : started) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private Process demo(Path log, String... extra) throws IOException {
        List<String> cmd = ChildJvm.tidemark(List.of("-Xmx384m", "-XX:+UseSerialGC", "-Djava.io.tmpdir=" + dir.resolve("tmp")),
                "demo", "--out", dir.resolve("out").toString());
        cmd.addAll(List.of(extra));
        // as root, PostgreSQL runs as the postgres account, which must be able to pass through these folders
        Files.createDirectories(dir.resolve("tmp"));
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
        Files.setPosixFilePermissions(dir.resolve("tmp"), java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        started.add(p);
        return p;
    }

    private static void awaitLine(Process p, Path log, String text) throws IOException {
        try {
            await("demo printed '" + text + "'").atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(100))
                    .failFast("demo exited early", () -> !p.isAlive())
                    .until(() -> Files.readString(log).contains(text));
        } catch (org.awaitility.core.ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
            throw new AssertionError(e.getMessage() + "; output:\n" + Files.readString(log), e);
        }
    }

    private static void sigint(Process p) throws Exception {
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    private List<Path> demoFolders() throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve("tmp"))) {
            return s.filter(f -> f.getFileName().toString().startsWith("tidemark-demo-")).toList();
        }
    }

    private static int awaitExit(Process p, Path log) throws Exception {
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            throw new AssertionError("demo still running 90 s after SIGINT:\n" + Files.readString(log));
        }
        return p.exitValue();
    }

    @Test
    void ctrlCDuringTheSnapshotIsAQuietStopWithExit130() throws Exception {
        Path log = dir.resolve("demo.log");
        Process p = demo(log);
        awaitLine(p, log, "created public.Invoice"); // CDC's snapshot starts now
        sigint(p);
        int code = awaitExit(p, log);
        String out = Files.readString(log);
        System.out.println("demo after SIGINT, exit " + code + ":\n" + out);
        assertThat(code).as("exit code; output:\n" + out).isEqualTo(130);
        assertThat(out.lines().filter(l -> l.startsWith("\tat ") || l.contains("Exception") || l.contains(" ERROR "))
                .toList()).as("stack traces and errors after Ctrl-C").isEmpty();
        assertThat(out).contains("tidemark: stopped");
        assertThat(demoFolders()).as("temporary folders left").isEmpty();
    }

    @Test
    void theNextDemoRemovesTheFolderOfADemoKilledWithKill9() throws Exception {
        Path first = dir.resolve("first.log");
        Process killed = demo(first, "--kafka", TestInfrastructure.kafkaBootstrap());
        awaitLine(killed, first, "with wal_level=logical on");
        killed.destroyForcibly(); // kill -9: nothing runs in that JVM any more
        assertThat(killed.waitFor(30, TimeUnit.SECONDS)).isTrue();
        List<Path> left = demoFolders();
        assertThat(left).as("the killed demo's folder stays behind").hasSize(1);

        Path second = dir.resolve("second.log");
        Process next = demo(second, "--kafka", TestInfrastructure.kafkaBootstrap());
        awaitLine(next, second, "with wal_level=logical on");
        String out = Files.readString(second);
        System.out.println("next demo:\n" + out);
        assertThat(Files.exists(left.get(0))).as(left.get(0) + " after the next demo started; output:\n" + out).isFalse();
        assertThat(out).contains("removed " + left.get(0));
        assertThat(demoFolders()).as("only the running demo's folder").hasSize(1);
        sigint(next);
        assertThat(awaitExit(next, second)).isEqualTo(130);
    }
}
