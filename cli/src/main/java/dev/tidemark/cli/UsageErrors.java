package dev.tidemark.cli;

import dev.tidemark.jdbc.UrlMask;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;

/**
 * How a command line picocli cannot parse is reported: one line naming what is wrong, an unknown option or command
 * first (with picocli's closest match) even when a required option is missing too, then where the help is; exit 2.
 * The full usage text is not repeated: {@code tidemark help COMMAND} shows it.
 */
final class UsageErrors {
    private UsageErrors() {
    }

    static int handle(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        cmd.getErr().println("tidemark: " + UrlMask.mask(message(e, args)) + "; see `" + helpFor(cmd) + "`");
        return ExitCodes.USAGE;
    }

    /**
     * An unknown option is named even when picocli reports something else first (a missing required option, as in
     * {@code run --confg x}); then an unknown command or stray argument; else picocli's own message.
     */
    private static String message(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        Optional<String> unknownOption = Arrays.stream(args)
                .filter(a -> a.startsWith("-") && a.length() > 1 && !a.equals("--") && !Character.isDigit(a.charAt(1)))
                .map(a -> a.contains("=") ? a.substring(0, a.indexOf('=')) : a)
                .filter(a -> cmd.getCommandSpec().findOption(a) == null)
                .findFirst();
        if (unknownOption.isPresent()) {
            return "unknown option '" + unknownOption.get() + "'" + suggestions(cmd, unknownOption.get());
        }
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String first = u.getUnmatched().get(0);
            return (cmd.getSubcommands().isEmpty() ? "unexpected argument '" : "unknown command '") + first + "'" + suggestions(cmd, first);
        }
        return e.getMessage();
    }

    private static String suggestions(CommandLine cmd, String unknown) {
        List<String> s = new CommandLine.UnmatchedArgumentException(cmd, List.of(unknown)).getSuggestions();
        return s.isEmpty() ? "" : " (did you mean " + String.join(" or ", s) + "?)";
    }

    private static String helpFor(CommandLine cmd) {
        String path = cmd.getCommandSpec().qualifiedName(" ");
        return path.equals("tidemark") ? "tidemark help" : "tidemark help " + path.substring("tidemark ".length());
    }
}
