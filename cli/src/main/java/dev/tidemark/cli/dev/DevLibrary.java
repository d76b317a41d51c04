package dev.tidemark.cli.dev;

import dev.tidemark.jdbc.UsageException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;

/**
 * Where the dev commands find their servers: {@code devenv} and the Kafka broker, shipped in {@code dev-lib} beside
 * the command's jar ({@code cli/target/dev-lib}) and put on the class path by the launcher for {@code demo},
 * {@code compare} and {@code dev-kafka} only. Without them (the Docker image) a dev command fails with one line
 * naming the missing folder ({@link UsageException}, exit 2).
 */
public final class DevLibrary {
    /** A class of {@code devenv}: present exactly when the dev libraries are on the class path. */
    static final String PROBE = "dev.tidemark.devenv.EmbeddedEnvironment";

    private DevLibrary() {
    }

    /** The servers for {@code command}, or a {@link UsageException} naming the folder that lacks them. */
    public static DevServers servers(String command) {
        try {
            Class.forName(PROBE, false, DevLibrary.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new UsageException(missing(command, folder()));
        }
        return ServiceLoader.load(DevServers.class, DevLibrary.class.getClassLoader()).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + DevServers.class.getName() + " service in the command's jar"));
    }

    /** The one line for a dev command run without its libraries. */
    static String missing(String command, Path folder) {
        String needs = command + " needs the development libraries (devenv and the Kafka broker) in " + folder;
        return Files.isDirectory(folder)
                ? needs + ", which are not on the class path: start it with the launcher (./tidemark " + command + "), which adds them"
                : needs + ", which does not exist: this installation (the Docker image, for one) ships without them; run " + command
                        + " from a source checkout (./tidemark " + command + ")";
    }

    /** {@code dev-lib} beside the folder or jar this class was loaded from (both are in {@code cli/target}). */
    static Path folder() {
        try {
            Path from = Path.of(DevLibrary.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return from.getParent().resolve("dev-lib");
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            return Path.of("cli", "target", "dev-lib");
        }
    }
}
