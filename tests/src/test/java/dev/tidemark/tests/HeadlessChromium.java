package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The machine's Chromium ({@value #BINARY}) run headless against a URL: the DOM after it rendered the page, or a
 * screenshot. Tests call {@link #requireInstalled()} first: without the browser they fail, naming the package to install.
 */
public final class HeadlessChromium {
    static final String BINARY = "/usr/bin/chromium";
    private final Path profile;

    public HeadlessChromium(Path workDir) throws IOException {
        this.profile = Files.createDirectories(workDir.resolve("chromium-profile"));
    }

    public static void requireInstalled() {
        assertThat(Files.isExecutable(Path.of(BINARY)))
                .as(BINARY + " is not installed: the status page cannot be checked in a real browser (.ci/run installs it: "
                        + "apt-get install chromium)").isTrue();
    }

    /** The page's DOM as serialised by the browser after loading it ({@code --dump-dom}). */
    public String dumpDom(String url) throws IOException, InterruptedException {
        return run(List.of("--dump-dom", url), "dump-dom");
    }

    /** Takes a screenshot of {@code url} at 1200×900 into {@code png}. */
    public void screenshot(String url, Path png) throws IOException, InterruptedException {
        run(List.of("--screenshot=" + png.toAbsolutePath(), "--window-size=1200,900", "--hide-scrollbars", url), "screenshot");
    }

    private String run(List<String> args, String what) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(BINARY, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile));
        cmd.addAll(args);
        Path out = Files.createTempFile(profile.getParent(), "chromium-" + what, ".out");
        Path err = Files.createTempFile(profile.getParent(), "chromium-" + what, ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium " + what + " finished within 90 s").isTrue();
        } finally {
            p.destroyForcibly();
        }
        assertThat(p.exitValue()).as("chromium " + what + " exit code; stderr:\n" + Files.readString(err, StandardCharsets.UTF_8)).isZero();
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
