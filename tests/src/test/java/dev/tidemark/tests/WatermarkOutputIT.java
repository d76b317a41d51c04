package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 9: every warning was printed twice (a WARN log line and {@code tidemark: warning}), and progress
 * bars wrote {@code \r} frames into redirected output. Here stderr is captured (no terminal): each warning appears
 * once and no {@code \r} is written, although the first load spans many chunks.
 */
class WatermarkOutputIT {
    @TempDir
    Path dir;

    @Test
    void warningsOnceAndNoProgressFramesWithoutATerminal() throws Exception {
        Path src = dir.resolve("src.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + src); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, modified DATETIME, name TEXT)");
            for (int i = 1; i <= 40; i++) {
                s.execute("INSERT INTO items VALUES (" + i + ", '2013-01-" + String.format("%02d", i % 28 + 1) + " 12:00:00', 'item')");
            }
        }
        CliRun r = CliRun.run("watermark", "--source", "jdbc:sqlite:" + src, "--target", "jdbc:sqlite:" + dir.resolve("r.db"),
                "--table", "items", "--cursor", "modified", "--chunk-size", "2");
        int code = r.exit();
        String out = r.out();
        String err = r.err();
        System.out.println("stdout:\n" + out + "stderr:\n" + err);
        assertThat(code).as(err).isZero();
        assertThat(out).contains("40 rows");
        assertThat(err).contains("warning [index]");
        assertThat(err.split("warning \\[index\\]", -1)).as("times the index warning appears in:\n" + err).hasSize(2);
        assertThat(out + err).as("carriage returns (progress frames) in redirected output").doesNotContain("\r");
    }
}
