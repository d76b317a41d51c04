package dev.tidemark.sink.jdbc;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;

/**
 * The sink's one error classifier at the database boundary. Transient: the connection was lost or refused
 * (SQLState class 08), the server is shutting down or restarting (57P01–57P03), serialization failures and
 * deadlocks (40001, 40P01, MariaDB 1205/1213), too many connections (53300, 1040), SQLite busy or locked. Everything
 * else (constraint violations, type errors, syntax, authentication in class 28) is not retried.
 */
public final class SqlFailures {
    private static final Set<String> TRANSIENT_STATES = Set.of("40001", "40P01", "57P01", "57P02", "57P03", "53300", "HY008");
    private static final Set<Integer> TRANSIENT_MARIADB = Set.of(1205, 1213, 1040, 2002, 2003, 2006, 2013);

    private SqlFailures() {
    }

    public static boolean isTransient(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SQLTransientException || c instanceof SQLRecoverableException) {
                return true;
            }
            if (c instanceof SQLException e) {
                String state = e.getSQLState();
                if (state != null && (state.startsWith("08") || TRANSIENT_STATES.contains(state))) {
                    return true;
                }
                if (state != null && state.startsWith("28")) {
                    return false;
                }
                if (TRANSIENT_MARIADB.contains(e.getErrorCode()) && state != null && !state.startsWith("23")) {
                    return true;
                }
                String m = String.valueOf(e.getMessage());
                if (m.contains("SQLITE_BUSY") || m.contains("SQLITE_LOCKED") || m.contains("database is locked")) {
                    return true;
                }
            }
            if (c instanceof java.io.IOException) {
                return true;
            }
        }
        return false;
    }
}
