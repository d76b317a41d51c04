package dev.tidemark.tests.chaos;

import dev.tidemark.tests.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The pipeline under test as child JVMs of the {@code tidemark} command, kept running the way a supervisor
 * (systemd, Kubernetes) keeps a service running: a process that exits by itself is started again after a pause, and
 * its exit code and last {@code tidemark:} line are recorded. Layout: one {@code run} process (the sidecar) or a
 * {@code capture} and a {@code sink} process; after a kill of the whole pipeline the next layout is drawn at random.
 *
 * <p>Not thread-safe: the harness thread calls everything, including {@link #superviseOnce()}.
 */
final class PipelineProcesses implements AutoCloseable {
    /** Roles of a pipeline process. */
    enum Role { RUN, CAPTURE, SINK }

    /** An exit the harness did not cause: the process stopped by itself. */
    record Exit(Role role, int code, String lastLine) {
    }

    private final Path config;
    private final Path logDir;
    private final Random random;
    private final Map<Role, Process> running = new EnumMap<>(Role.class);
    private final Map<Role, Path> logs = new EnumMap<>(Role.class);
    private final Map<Role, Long> restartAt = new EnumMap<>(Role.class);
    private final List<Exit> exits = new ArrayList<>();
    private final Map<String, Integer> starts = new LinkedHashMap<>();
    private int generation;

    PipelineProcesses(Path config, Path logDir, Random random) {
        this.config = config;
        this.logDir = logDir;
        this.random = random;
    }

    /** Starts the split layout (capture + sink). */
    void start() throws IOException {
        startRole(Role.CAPTURE);
        startRole(Role.SINK);
    }

    /** {@code kill -9} of every process, then a new layout drawn at random. */
    void killAll() throws IOException {
        for (Role r : List.copyOf(running.keySet())) {
            kill(r);
        }
        restartAt.clear();
        if (random.nextBoolean()) {
            startRole(Role.RUN);
        } else {
            startRole(Role.CAPTURE);
            startRole(Role.SINK);
        }
    }

    /**
     * {@code kill -9} of the process doing {@code role}'s work (the sidecar if the layout is {@code run}), started
     * again at once in the same role.
     */
    void kill(Role role, boolean restart) throws IOException {
        Role actual = running.containsKey(role) ? role : Role.RUN;
        if (!running.containsKey(actual)) {
            return;
        }
        kill(actual);
        if (restart) {
            startRole(actual);
        }
    }

    private void kill(Role role) {
        Process p = running.remove(role);
        if (p == null) {
            return;
        }
        p.destroyForcibly(); // SIGKILL on Linux
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(role + " did not die of SIGKILL within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Records processes that exited by themselves and restarts each 2 s after its exit. */
    void superviseOnce() throws IOException {
        long now = System.nanoTime();
        for (Map.Entry<Role, Process> e : List.copyOf(running.entrySet())) {
            Process p = e.getValue();
            if (!p.isAlive()) {
                running.remove(e.getKey());
                exits.add(new Exit(e.getKey(), p.exitValue(), lastTidemarkLine(logs.get(e.getKey()))));
                restartAt.put(e.getKey(), now + TimeUnit.SECONDS.toNanos(2));
            }
        }
        for (Map.Entry<Role, Long> e : List.copyOf(restartAt.entrySet())) {
            if (now >= e.getValue()) {
                restartAt.remove(e.getKey());
                startRole(e.getKey());
            }
        }
    }

    /** Stops every process with SIGTERM (a drain) and waits for each. */
    void stopGracefully() {
        restartAt.clear();
        for (Map.Entry<Role, Process> e : List.copyOf(running.entrySet())) {
            e.getValue().destroy();
        }
        for (Map.Entry<Role, Process> e : List.copyOf(running.entrySet())) {
            try {
                if (!e.getValue().waitFor(90, TimeUnit.SECONDS)) {
                    e.getValue().destroyForcibly();
                }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
            running.remove(e.getKey());
        }
    }

    List<Exit> exits() {
        return List.copyOf(exits);
    }

    /** How often each role was started. */
    Map<String, Integer> starts() {
        return Map.copyOf(starts);
    }

    /** The last lines of every log, for a failure message. */
    String tails() {
        StringBuilder b = new StringBuilder();
        try (var files = Files.list(logDir)) {
            for (Path log : files.sorted().toList()) {
                List<String> lines = Files.readAllLines(log);
                b.append("--- ").append(log.getFileName()).append(" ---\n")
                        .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 8), lines.size()))).append('\n');
            }
        } catch (IOException e) {
            b.append("(logs unreadable: ").append(e.getMessage()).append(")");
        }
        return b.toString();
    }

    private void startRole(Role role) throws IOException {
        Path log = logDir.resolve(String.format("%03d-%s.log", ++generation, role.name().toLowerCase()));
        ProcessBuilder pb = new ProcessBuilder(ChildJvm.tidemark(List.of("-Xmx512m", "-XX:+UseSerialGC"),
                role.name().toLowerCase(), "--config", config.toString()));
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        running.put(role, pb.start());
        logs.put(role, log);
        starts.merge(role.name().toLowerCase(), 1, Integer::sum);
    }

    /** The last line a process printed about itself ({@code tidemark: …}), else its last line. */
    static String lastTidemarkLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (lines.get(i).startsWith("tidemark:")) {
                    return lines.get(i);
                }
            }
            return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        restartAt.clear();
        for (Role r : List.copyOf(running.keySet())) {
            kill(r);
        }
    }
}
