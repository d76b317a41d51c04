package dev.tidemark.jdbc;

/**
 * The request cannot be carried out as given: a bad flag or setting, or flags that do not fit the tables they name
 * (a missing column, a cursor of the wrong type). The user fixes the command line or the configuration; nothing was
 * written. The {@code tidemark} command exits with 2 ("bad usage") for this and for a rejected configuration file, and
 * with 3 for every other failure, so a failure of the data or of a database at run time never reads as bad usage.
 *
 * <p>Lives in the lowest module whose code signals usage problems (the sink's own settings, {@code --replay-from}), so
 * the connector's and reconcile's request checks and the command line can all throw it. It extends
 * {@link IllegalArgumentException} so code that validates arguments and catches that type keeps working.
 */
public class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }

    public UsageException(String message, Throwable cause) {
        super(message, cause);
    }

    /** {@code e} recognised as a usage problem where it is caught (its message as it is, {@code e} as the cause). */
    public static UsageException of(IllegalArgumentException e) {
        return e instanceof UsageException u ? u : new UsageException(e.getMessage(), e);
    }
}
