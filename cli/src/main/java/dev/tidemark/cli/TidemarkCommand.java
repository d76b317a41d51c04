package dev.tidemark.cli;

import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.process.NativeLibraryFolder;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code tidemark} command. Exit codes: 0 success, 1 differences found, 2 bad usage or configuration,
 * 3 runtime failure (see {@link ExitCodes#of} for which failure is which).
 */
@Command(name = "tidemark", mixinStandardHelpOptions = true, version = "tidemark 0.1.0",
        description = "Change-data-capture: PostgreSQL logical decoding → Kafka → JDBC targets, with proof.",
        subcommands = {RunCommand.class, CaptureCommand.class, SinkCommand.class, DemoCommand.class, WatermarkCommand.class,
                ReconcileCommand.class, CompareCommand.class, StatusCommand.class, DropCommand.class, SnapshotCommand.class, DevKafkaCommand.class, CommandLine.HelpCommand.class})
public final class TidemarkCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Log line formats; read by {@link #main} before logging starts (logback.xml picks the appender). */
    enum LogFormat { text, json }

    @CommandLine.Option(names = "--log-format", paramLabel = "text|json", scope = CommandLine.ScopeType.INHERIT,
            description = "log lines on stderr as text (default; ISO-8601 time with zone) or json (one object per line: timestamp, "
                    + "level, loggerName, formattedMessage, throwable). The level comes from TIDEMARK_LOG_LEVEL (default INFO).")
    LogFormat logFormat;

    public static void main(String[] args) {
        NativeLibraryFolder.useOwn(); // first: before any native library (sqlite-jdbc, lz4-java) unpacks
        logFormat(args).ifPresent(f -> System.setProperty("TIDEMARK_LOG_FORMAT", f.toUpperCase(java.util.Locale.ROOT)));
        if (args.length > 0 && (args[0].equals("demo") || args[0].equals("compare")) && System.getProperty("TIDEMARK_LOG_LEVEL") == null
                && System.getenv("TIDEMARK_LOG_LEVEL") == null) {
            // demo and compare narrate on stdout; keep the log to warnings
            System.setProperty("TIDEMARK_LOG_LEVEL", "WARN");
        }
        System.exit(execute(args));
    }

    /** The value of {@code --log-format} when it is a known format (picocli rejects any other with exit 2). */
    static java.util.Optional<String> logFormat(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String v = args[i].startsWith("--log-format=") ? args[i].substring("--log-format=".length())
                    : args[i].equals("--log-format") && i + 1 < args.length ? args[i + 1] : null;
            if (v != null && (v.equals("text") || v.equals("json"))) {
                return java.util.Optional.of(v);
            }
        }
        return java.util.Optional.empty();
    }

    /** Runs the command line and returns the exit code (no System.exit, for tests). */
    public static int execute(String... args) {
        CommandLine cl = new CommandLine(new TidemarkCommand());
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("tidemark: " + oneLine(e));
            return ExitCodes.of(e);
        });
        cl.setParameterExceptionHandler(UsageErrors::handle);
        return cl.execute(args);
    }

    /** The failure's message with every credential embedded in a URL masked ({@link UrlMask}). */
    static String oneLine(Throwable e) {
        Optional<String> oom = outOfMemory(e, Runtime.getRuntime().maxMemory());
        if (oom.isPresent()) {
            return oom.get();
        }
        String m = e.getMessage() == null ? "failed: " + e.getClass().getSimpleName() : e.getMessage();
        return UrlMask.mask(m);
    }

    /**
     * The line for a failure that is (or was caused by) the JVM running out of memory: which memory, the heap limit it
     * ran with, that nothing applied is lost, and how to start again with more; empty for any other failure.
     */
    static Optional<String> outOfMemory(Throwable e, long maxHeapBytes) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OutOfMemoryError) {
                return Optional.of("out of memory (" + (t.getMessage() == null ? "OutOfMemoryError" : t.getMessage())
                        + ") with a heap of at most " + (maxHeapBytes >> 20) + " MiB; nothing already applied is lost (the sink"
                        + " resumes from the offsets stored in the target, capture from its stored offsets). Start it again with"
                        + " a larger heap: TIDEMARK_HEAP=1g");
            }
        }
        return Optional.empty();
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "choose a command: " + String.join(", ", spec.subcommands().keySet()) + " (tidemark help COMMAND explains one)");
    }
}
