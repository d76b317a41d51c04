package dev.tidemark.cli;

import java.io.Console;
import java.io.PrintStream;
import java.lang.reflect.Method;

/**
 * Whether this process talks to a terminal, so progress bars ({@code \r} frames) are drawn only there and never into
 * redirected output. On Java 17–21 {@link System#console()} is null unless stdin and stdout are a terminal; from
 * Java 22 a console may exist anyway, so its {@code isTerminal()} is asked too.
 */
final class Terminal {
    private Terminal() {
    }

    /** {@code err} for progress bars when wanted and on a terminal, else null (no bar). */
    static PrintStream progress(boolean noProgress, PrintStream err) {
        return noProgress || !interactive() ? null : err;
    }

    static boolean interactive() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException e) {
            return true; // before Java 22 a console exists only on a terminal
        }
    }
}
