package dev.tidemark.tests.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class path each command gets from the packaged distribution. The distribution is built as the image's build
 * stage builds it (the Dockerfile's {@code COPY} lines into an empty folder, then its {@code RUN} command, offline),
 * then laid out twice: as a source checkout (everything under {@code cli/target} beside the launcher) and as the
 * image (only what the runtime stage copies). A stand-in {@code java} on {@code PATH} records the command line the
 * launcher starts; its class path is the {@code -jar} or {@code -cp} entries and the {@code Class-Path} of every jar
 * among them. {@code run} and the other commands must not see the Kafka broker; {@code demo}, {@code compare} and
 * {@code dev-kafka} do, in a checkout; the image has no broker at all and its {@code demo} says so in one line.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CommandClassPathTest {
    /** The broker's jars: only the dev commands may load them. */
    private static final Pattern BROKER = Pattern.compile("(kafka_2\\.13|kafka-server|kafka-raft|kafka-metadata|kafka-storage|scala-library)-.*\\.jar");
    private static final Pattern DEVENV = Pattern.compile("tidemark-devenv-.*\\.jar");

    private final ComposeProject project = ComposeProject.find();
    private Path checkout;
    private Path image;
    private Path fakeJava;

    @BeforeAll
    void buildTheDistribution(@TempDir Path workdir) throws IOException {
        List<String> dockerfile = Files.readAllLines(project.root().resolve("Dockerfile"));
        Path src = workdir.resolve("src");
        List<String> run = new ArrayList<>();
        for (String line : stage(dockerfile, 1)) {
            String[] parts = line.trim().split("\\s+");
            if (parts[0].equals("COPY")) {
                for (int i = 1; i < parts.length - 1; i++) {
                    Path from = project.root().resolve(parts[i]);
                    String dest = parts[parts.length - 1];
                    Path to = dest.endsWith("/") ? src.resolve(dest).resolve(from.getFileName().toString()) : src.resolve(dest);
                    ComposeFileTest.copy(from, to.normalize());
                }
            } else if (parts[0].equals("RUN")) {
                run.add(line.trim().substring("RUN".length()).trim());
            }
        }
        ComposeProject.Result build = run(src, Map.of(), "sh", "-c", run.get(0) + " -o");
        assertThat(build.exit()).as("the build stage's `%s`; output:%n%s", run.get(0), build.output()).isZero();
        checkout = src;
        Files.copy(project.root().resolve("tidemark"), checkout.resolve("tidemark"));
        // a checkout the launcher must not rebuild: sources older than the jar
        touchOlder(checkout, checkout.resolve("cli/target/tidemark.jar"));
        image = workdir.resolve("opt-tidemark");
        layOutImage(stage(dockerfile, 2), src, image);
        fakeJava = workdir.resolve("fake-bin");
        Files.createDirectories(fakeJava);
        Path java = fakeJava.resolve("java");
        Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void runAndTheOtherCommandsGetNoBrokerJarInACheckout() throws IOException {
        for (String command : List.of("run", "capture", "sink", "reconcile", "watermark", "status")) {
            List<Path> cp = classPath(launched(checkout, command, "--help"));
            assertThat(cp).as("class path of `%s` in a checkout", command).isNotEmpty()
                    .noneMatch(p -> BROKER.matcher(p.getFileName().toString()).matches())
                    .noneMatch(p -> DEVENV.matcher(p.getFileName().toString()).matches());
        }
        List<Path> cp = classPath(launched(checkout, "--log-format", "json", "run", "--help"));
        assertThat(cp).as("class path of `--log-format json run`").noneMatch(p -> BROKER.matcher(p.getFileName().toString()).matches());
    }

    @Test
    void theDevCommandsGetDevenvAndTheBrokerInACheckout() throws IOException {
        for (String command : List.of("demo", "compare", "dev-kafka")) {
            List<Path> cp = classPath(launched(checkout, command));
            assertThat(cp).as("class path of `%s` in a checkout", command)
                    .anyMatch(p -> p.getFileName().toString().startsWith("kafka_2.13-"))
                    .anyMatch(p -> DEVENV.matcher(p.getFileName().toString()).matches())
                    .allMatch(Files::exists);
        }
    }

    @Test
    void theImageCarriesNoBrokerAndItsDemoSaysSoInOneLine() throws IOException {
        assertThat(stage(Files.readAllLines(project.root().resolve("Dockerfile")), 2))
                .as("the runtime stage's lines").noneMatch(l -> l.contains("dev-lib"));
        try (Stream<Path> files = Files.walk(image)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("files of the image").noneMatch(n -> BROKER.matcher(n).matches() || DEVENV.matcher(n).matches());
        }
        assertThat(classPath(launched(image, "run", "--help"))).as("class path of `run` in the image").isNotEmpty()
                .noneMatch(p -> BROKER.matcher(p.getFileName().toString()).matches());
        Path javaBin = Path.of(System.getProperty("java.home"), "bin");
        ComposeProject.Result help = run(image, Map.of("PATH", javaBin + File.pathSeparator + "/usr/bin:/bin"), image.resolve("tidemark").toString(), "--help");
        assertThat(help.exit()).as("`tidemark --help` in the image:%n%s", help.output()).isZero();
        assertThat(help.output()).contains("demo", "dev-kafka", "run");
        ComposeProject.Result demo = run(image, Map.of("PATH", javaBin + File.pathSeparator + "/usr/bin:/bin"), image.resolve("tidemark").toString(), "demo");
        assertThat(demo.exit()).as("`tidemark demo` in the image:%n%s", demo.output()).isEqualTo(2);
        assertThat(demo.output().strip().lines()).as("its output").hasSize(1).first().asString()
                .contains("dev-lib").doesNotContain("Exception");
    }

    /** What the launcher in {@code dir} passes to {@code java} for {@code args}. */
    private List<String> launched(Path dir, String... args) {
        List<String> cmd = new ArrayList<>(List.of(dir.resolve("tidemark").toString()));
        cmd.addAll(Arrays.asList(args));
        ComposeProject.Result r = run(dir, Map.of("PATH", fakeJava + File.pathSeparator + System.getenv("PATH")), cmd.toArray(String[]::new));
        assertThat(r.exit()).as("the launcher with %s:%n%s", Arrays.toString(args), r.output()).isZero();
        assertThat(r.output()).as("the launcher rebuilt instead of starting").doesNotContain("building");
        return r.output().lines().toList();
    }

    /** The class path of a {@code java} command line: its {@code -jar} or {@code -cp} entries and their jars' Class-Path. */
    private static List<Path> classPath(List<String> javaArgs) throws IOException {
        List<Path> entries = new ArrayList<>();
        for (int i = 0; i < javaArgs.size() - 1; i++) {
            String a = javaArgs.get(i);
            if (a.equals("-jar")) {
                entries.add(Path.of(javaArgs.get(i + 1)));
                break;
            }
            if (a.equals("-cp") || a.equals("-classpath") || a.equals("--class-path")) {
                for (String e : javaArgs.get(i + 1).split(File.pathSeparator)) {
                    entries.addAll(expand(e));
                }
                break;
            }
        }
        List<Path> all = new ArrayList<>();
        for (Path e : entries) {
            all.add(e);
            if (e.toString().endsWith(".jar") && Files.isRegularFile(e)) {
                try (JarFile jar = new JarFile(e.toFile())) {
                    String cp = jar.getManifest() == null ? null : jar.getManifest().getMainAttributes().getValue("Class-Path");
                    if (cp != null) {
                        Arrays.stream(cp.trim().split("\\s+")).map(s -> e.getParent().resolve(s).normalize())
                                .filter(Files::exists).forEach(all::add);
                    }
                }
            }
        }
        return all;
    }

    private static List<Path> expand(String entry) throws IOException {
        if (!entry.endsWith("*")) {
            return List.of(Path.of(entry));
        }
        Path dir = Path.of(entry.substring(0, entry.length() - 1));
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".jar")).toList();
        }
    }

    /** The image's files: each {@code COPY} of the runtime stage, {@code --from=build} from {@code src}, else from here. */
    private void layOutImage(List<String> runtime, Path src, Path image) throws IOException {
        for (String line : runtime) {
            String[] parts = line.trim().split("\\s+");
            if (!parts[0].equals("COPY")) {
                continue;
            }
            boolean fromBuild = parts[1].startsWith("--from=");
            Path from = fromBuild ? src.resolve(parts[2].substring("/src/".length())) : project.root().resolve(parts[1]);
            String dest = parts[parts.length - 1];
            assertThat(dest).as("a runtime COPY destination").startsWith("/opt/tidemark/");
            ComposeFileTest.copy(from, image.resolve(dest.substring("/opt/tidemark/".length())));
        }
    }

    /** The lines of the {@code n}th stage (from its {@code FROM} up to the next), without comments. */
    private static List<String> stage(List<String> dockerfile, int n) {
        List<String> lines = new ArrayList<>();
        int froms = 0;
        for (String line : dockerfile) {
            if (line.startsWith("FROM ")) {
                froms++;
            }
            if (froms == n && !line.trim().startsWith("#") && !line.isBlank()) {
                lines.add(line);
            }
        }
        return lines;
    }

    private static void touchOlder(Path root, Path than) throws IOException {
        java.nio.file.attribute.FileTime older = java.nio.file.attribute.FileTime.fromMillis(
                Files.getLastModifiedTime(than).toMillis() - 60_000);
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (!f.startsWith(root.resolve("cli/target")) && (f.toString().contains("/src/main/") || f.getFileName().toString().equals("pom.xml"))) {
                    Files.setLastModifiedTime(f, older);
                }
            }
        }
    }

    private static ComposeProject.Result run(Path dir, Map<String, String> env, String... command) {
        return ComposeProject.runIn(dir, env, Duration.ofMinutes(8), command);
    }
}
