package dev.tidemark.cli;

import dev.tidemark.jdbc.UrlMask;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code tidemark} command. Exit codes: 0 success, 1 differences found, 2 bad usage or configuration,
 * 3 runtime failure (see {@link ExitCodes#of} for which failure is which).
 */
@Command(name = "tidemark", mixinStandardHelpOptions = true, version = "tidemark 0.1.0",
        description = "Change-data-capture: PostgreSQL logical decoding → Kafka → JDBC targets, with proof.",
        subcommands = {RunCommand.class, CaptureCommand.class, SinkCommand.class, DemoCommand.class, WatermarkCommand.class,
                ReconcileCommand.class, CompareCommand.class, StatusCommand.class, CommandLine.HelpCommand.class})
public final class TidemarkCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        if (args.length > 0 && (args[0].equals("demo") || args[0].equals("compare")) && System.getProperty("TIDEMARK_LOG_LEVEL") == null
                && System.getenv("TIDEMARK_LOG_LEVEL") == null) {
            // demo and compare narrate on stdout; keep the log to warnings
            System.setProperty("TIDEMARK_LOG_LEVEL", "WARN");
        }
        System.exit(execute(args));
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
        String m = e.getMessage() == null ? "failed: " + e.getClass().getSimpleName() : e.getMessage();
        return UrlMask.mask(m);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "choose a command: " + String.join(", ", spec.subcommands().keySet()) + " (tidemark help COMMAND explains one)");
    }
}
