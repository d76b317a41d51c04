package dev.tidemark.jdbc;

/** Database messages made fit for the sink's one-line errors. */
public final class Messages {
    private Messages() {
    }

    /** The exception's message on one line: the driver's detail lines joined with "; ". */
    public static String oneLine(Throwable t) {
        String m = String.valueOf(t.getMessage()).strip();
        return m.replaceAll("\\s*\\R\\s*", "; ");
    }
}
