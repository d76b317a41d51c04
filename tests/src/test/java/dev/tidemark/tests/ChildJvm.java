package dev.tidemark.tests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The command line of a {@code tidemark} child JVM the suite starts (a pipeline process, a command under test): this
 * JVM's {@code java}, the given options, the options that make it start cheaply, the suite's class path,
 * {@code dev.tidemark.cli.TidemarkCommand} and its arguments.
 *
 * <p>Why: the suite is bound by its two cores, and a child spent about 4 s of processor time on a few seconds of work:
 * compiling with both JIT tiers, and loading some 8,000 classes (Debezium, Kafka clients, drivers). Children compile
 * with the first tier only ({@code -XX:TieredStopAtLevel=1}), and share one
 * class-data-sharing archive per test JVM: the children started first record the classes they load
 * ({@code -XX:DumpLoadedClassList}); once one list holds {@value #ENOUGH_CLASSES} classes, a background thread dumps a
 * static archive from it ({@code -Xshare:dump}), and every later child maps it ({@code -XX:SharedArchiveFile}). Only
 * speed changes: a child runs the same classes either way, and with the JVM's default {@code -Xshare:auto} an archive
 * that cannot be mapped is silently not used. The archive covers the class path's jars; the class path puts this
 * module's {@code test-classes} folder last, since a static archive can only be made from jars and must be a prefix
 * of the class path that uses it. Seen in {@code TopicRecreatedIT}: a child's processor time went from 4.1 s to 1.8 s
 * with the first tier alone and to 1.0 s with the archive as well.
 */
public final class ChildJvm {
    private static final String MAIN = "dev.tidemark.cli.TidemarkCommand";
    private static final int ENOUGH_CLASSES = 6000;
    private static final long RECORDING_MINUTES = 15;
    private static final Path DIR = Path.of("target", "cds", String.valueOf(ProcessHandle.current().pid())).toAbsolutePath();
    private static final Path ARCHIVE = DIR.resolve("children.jsa");
    private static final List<String> JARS = classPath(true);
    private static final List<String> FOLDERS = classPath(false);

    private static final List<Path> lists = new ArrayList<>();
    private static volatile boolean archived;
    private static boolean abandoned;
    private static Thread dumper;

    private ChildJvm() {
    }

    /** {@code java OPTIONS… [class data sharing] -cp CLASSPATH TidemarkCommand ARGS…}, as a modifiable list. */
    public static List<String> tidemark(List<String> options, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.addAll(options);
        cmd.addAll(sharing());
        cmd.add("-cp");
        cmd.add(Stream.concat(JARS.stream(), FOLDERS.stream()).collect(Collectors.joining(java.io.File.pathSeparator)));
        cmd.add(MAIN);
        cmd.addAll(Arrays.asList(args));
        return cmd;
    }

    /** The class-data-sharing option of the next child: map the archive, record its classes, or none. */
    private static synchronized List<String> sharing() {
        if (archived) {
            return List.of("-XX:SharedArchiveFile=" + ARCHIVE);
        }
        if (abandoned || dumper != null && !dumper.isAlive() || JARS.isEmpty()) {
            return List.of();
        }
        try {
            Files.createDirectories(DIR);
        } catch (IOException e) {
            abandoned = true;
            return List.of();
        }
        Path list = DIR.resolve("classes-" + lists.size() + ".lst");
        lists.add(list);
        if (dumper == null) {
            dumper = new Thread(ChildJvm::recordAndDump, "child-jvm-archive");
            dumper.setDaemon(true);
            dumper.start();
        }
        return List.of("-XX:DumpLoadedClassList=" + list);
    }

    /** Waits for a list long enough, then dumps the archive from a copy of it; gives up quietly. */
    private static void recordAndDump() {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(RECORDING_MINUTES);
        try {
            while (System.nanoTime() < deadline) {
                for (Path list : recorded()) {
                    if (Files.exists(list) && lineCount(list) >= ENOUGH_CLASSES) {
                        dump(list);
                        return;
                    }
                }
                TimeUnit.SECONDS.sleep(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | UncheckedIOException e) {
            // no archive: children start as they would without one
        }
        synchronized (ChildJvm.class) {
            abandoned = true;
        }
    }

    private static synchronized List<Path> recorded() {
        return new ArrayList<>(lists);
    }

    private static long lineCount(Path list) throws IOException {
        try (Stream<String> lines = Files.lines(list)) {
            return lines.count();
        }
    }

    private static void dump(Path list) throws IOException, InterruptedException {
        Path copy = DIR.resolve("classes.lst");
        Files.copy(list, copy, StandardCopyOption.REPLACE_EXISTING);
        Path partial = DIR.resolve("children.jsa.partial");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xshare:dump",
                "-XX:SharedClassListFile=" + copy, "-XX:SharedArchiveFile=" + partial, "-cp", String.join(java.io.File.pathSeparator, JARS))
                .redirectErrorStream(true).redirectOutput(DIR.resolve("dump.log").toFile()).start();
        if (p.waitFor(5, TimeUnit.MINUTES) && p.exitValue() == 0 && Files.exists(partial)) {
            Files.move(partial, ARCHIVE, StandardCopyOption.ATOMIC_MOVE);
            archived = true;
        } else {
            p.destroyForcibly();
        }
    }

    /** The entries of this JVM's class path that are jars ({@code true}) or not. */
    private static List<String> classPath(boolean jars) {
        return Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .filter(e -> !e.isBlank() && e.endsWith(".jar") == jars).toList();
    }
}
