package dev.tidemark.cli;

import dev.tidemark.connector.config.ConfigException;
import dev.tidemark.jdbc.UsageException;

/** Process exit codes of every tidemark command, and which failure gets which. */
final class ExitCodes {
    static final int OK = 0;
    /** reconcile/compare found differences; demo found source and target different */
    static final int DIFFERENT = 1;
    /** bad usage: a rejected configuration ({@link ConfigException}) or command line ({@link UsageException}) */
    static final int USAGE = 2;
    /** every other failure: a database, the broker or the data failed at run time */
    static final int RUNTIME = 3;
    /** stopped by Ctrl-C (SIGINT; 128 + 2), after a quiet drain; also the demo and compare on SIGTERM */
    static final int INTERRUPTED = 130;

    private ExitCodes() {
    }

    /**
     * The exit code of a command that failed with {@code failure}: {@link #USAGE} only for a failure that says the
     * request itself is wrong; anything else, including a plain {@link IllegalArgumentException} from the data, is
     * {@link #RUNTIME}.
     */
    static int of(Throwable failure) {
        return failure instanceof ConfigException || failure instanceof UsageException ? USAGE : RUNTIME;
    }
}
