package dev.tidemark.tests;

import dev.tidemark.cli.TidemarkCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs {@code tidemark ARGS…} in this JVM with {@code System.out} and {@code System.err} captured (log lines go to
 * the captured stderr), and restores both streams afterwards. Not thread-safe: the streams are global.
 *
 * @param exit the command's exit code
 * @param out  what it printed on stdout
 * @param err  what it printed on stderr
 */
public record CliRun(int exit, String out, String err) {
    public static CliRun run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            exit = TidemarkCommand.execute(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new CliRun(exit, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }
}
