package dev.tidemark.tests.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The repository's {@code docker-compose.yml} for the deployment tests: where the repository is, and one way to run
 * a command there with a time limit and its output captured. Test helper, not thread-safe.
 *
 * @param root the repository root (the folder holding {@code docker-compose.yml} and {@code event/pom.xml})
 */
record ComposeProject(Path root) {
    static ComposeProject find() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.exists(dir.resolve("event").resolve("pom.xml")) && Files.exists(dir.resolve("docker-compose.yml")))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no repository root (a folder with event/pom.xml and docker-compose.yml) above "
                    + Path.of("").toAbsolutePath());
        }
        return new ComposeProject(dir);
    }

    Path composeFile() {
        return root.resolve("docker-compose.yml");
    }

    /** A finished command: its exit code and its stdout and stderr together. */
    record Result(int exit, String output) {
    }

    /** Runs {@code command} in the repository root; a command still running after {@code limit} is killed (exit -1). */
    Result run(Duration limit, String... command) {
        return runIn(root, limit, command);
    }

    /** Runs {@code command} in {@code dir}, as {@link #run}. */
    static Result runIn(Path dir, Duration limit, String... command) {
        return runIn(dir, Map.of(), limit, command);
    }

    /** Runs {@code command} in {@code dir} with {@code env} added to this JVM's environment, as {@link #run}. */
    static Result runIn(Path dir, Map<String, String> env, Duration limit, String... command) {
        List<String> cmd = new ArrayList<>(List.of(command));
        try {
            Path log = Files.createTempFile("tidemark-command", ".log");
            try {
                ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                        .redirectOutput(log.toFile());
                pb.environment().putAll(env);
                Process p = pb.start();
                boolean done = p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
                if (!done) {
                    p.destroyForcibly().waitFor();
                }
                return new Result(done ? p.exitValue() : -1, Files.readString(log, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            return new Result(-1, "cannot run " + cmd + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted while running " + cmd);
        }
    }
}
