package dev.tidemark.jdbc;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;

/**
 * The sink's one error classifier at the database boundary: a pure decision from the exception chain (SQLState,
 * vendor code, and for SQLite the result code in the message) to a {@link Failure}.
 *
 * <ul>
 *   <li>Transient: SQLState class 08 (connection), 57P01–57P03 (server shutting down or restarting), 40001/40P01
 *       (serialization failure, deadlock), 53300 and MariaDB 1040 (too many connections), 55P03 (lock not available),
 *       57014 (statement cancelled), MariaDB 1205/1213 and client codes 2002/2003/2006/2013, SQLite busy or locked,
 *       and I/O errors.</li>
 *   <li>Row rejected (poison): SQLState class 22 (data exception) and 23 (integrity constraint), MariaDB's data and
 *       constraint errors reported under other states (1048, 1062, 1264, 1265, 1292, 1366, 1406, 1451, 1452, 1690,
 *       3819, 4025), SQLite constraint, mismatch and too-big results.</li>
 *   <li>Fault, with its cause: privilege (42501, MariaDB 1044/1142/1143/1227/1370, SQLite read-only/permission),
 *       missing object (42P01, 42703, 42S02, 42S22, MariaDB 1146/1054, SQLite "no such table/column"), out of
 *       resources (class 53 but 53300, MariaDB 3/1021/1037/1038/1041/1114, SQLite full/no-memory/I/O error),
 *       authentication (class 28, MariaDB 1045); everything else is a fault too: an unknown failure stops the sink
 *       rather than skip an event.</li>
 * </ul>
 */
public final class SqlFailures {
    private static final Set<String> TRANSIENT_STATES = Set.of("40001", "40P01", "57P01", "57P02", "57P03", "53300", "HY008",
            "55P03", "57014");
    private static final Set<Integer> TRANSIENT_MARIADB = Set.of(1205, 1213, 1040, 2002, 2003, 2006, 2013);
    private static final Set<Integer> ROW_MARIADB = Set.of(1048, 1062, 1264, 1265, 1292, 1366, 1406, 1451, 1452, 1690, 3819, 4025);
    private static final Set<Integer> PRIVILEGE_MARIADB = Set.of(1044, 1142, 1143, 1227, 1370);
    private static final Set<Integer> MISSING_MARIADB = Set.of(1146, 1054);
    private static final Set<Integer> RESOURCES_MARIADB = Set.of(3, 1021, 1037, 1038, 1041, 1114);
    private static final Set<String> MISSING_STATES = Set.of("42P01", "42703", "42S02", "42S22", "3F000");
    // SQLite primary result codes (the xerial driver reports them as the vendor code, without a SQLState)
    private static final int SQLITE_PERM = 3;
    private static final int SQLITE_BUSY = 5;
    private static final int SQLITE_LOCKED = 6;
    private static final int SQLITE_NOMEM = 7;
    private static final int SQLITE_READONLY = 8;
    private static final int SQLITE_IOERR = 10;
    private static final int SQLITE_FULL = 13;
    private static final int SQLITE_TOOBIG = 18;
    private static final int SQLITE_CONSTRAINT = 19;
    private static final int SQLITE_MISMATCH = 20;
    private static final int SQLITE_AUTH = 23;

    private SqlFailures() {
    }

    public static boolean isTransient(Throwable t) {
        return classify(t) instanceof Failure.Transient;
    }

    /** Classifies a failure by the first exception in its cause chain that says what it is. */
    public static Failure classify(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            Failure f = classifyOne(c);
            if (f != null) {
                return f;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return new Failure.Fault(Failure.Cause.OTHER);
    }

    private static Failure classifyOne(Throwable c) {
        if (c instanceof SinkException se) {
            return se.failure();
        }
        if (c instanceof java.io.IOException) {
            return new Failure.Transient();
        }
        if (!(c instanceof SQLException e)) {
            return null;
        }
        String state = e.getSQLState();
        int code = e.getErrorCode();
        String message = String.valueOf(e.getMessage());
        if (state == null && message.startsWith("[SQLITE_")) {
            return sqlite(code, message);
        }
        if (state != null && state.startsWith("08") || TRANSIENT_STATES.contains(state)) {
            return new Failure.Transient();
        }
        if (state != null && state.startsWith("28") || code == 1045) {
            return new Failure.Fault(Failure.Cause.AUTHENTICATION);
        }
        if (TRANSIENT_MARIADB.contains(code) && (state == null || !state.startsWith("23"))) {
            return new Failure.Transient();
        }
        if ("42501".equals(state) || PRIVILEGE_MARIADB.contains(code)) {
            return new Failure.Fault(Failure.Cause.PRIVILEGE);
        }
        if (MISSING_STATES.contains(state) || MISSING_MARIADB.contains(code)) {
            return new Failure.Fault(Failure.Cause.MISSING_OBJECT);
        }
        if (state != null && state.startsWith("53") || RESOURCES_MARIADB.contains(code)) {
            return new Failure.Fault(Failure.Cause.OUT_OF_RESOURCES);
        }
        if (state != null && (state.startsWith("22") || state.startsWith("23")) || ROW_MARIADB.contains(code)) {
            return new Failure.RowRejected();
        }
        if (c instanceof SQLTransientException || c instanceof SQLRecoverableException) {
            return new Failure.Transient();
        }
        if (state != null || code != 0) {
            return new Failure.Fault(Failure.Cause.OTHER);
        }
        return null; // a bare wrapper: look at its cause
    }

    private static Failure sqlite(int code, String message) {
        return switch (code) {
            case SQLITE_BUSY, SQLITE_LOCKED -> new Failure.Transient();
            case SQLITE_CONSTRAINT, SQLITE_MISMATCH, SQLITE_TOOBIG -> new Failure.RowRejected();
            case SQLITE_PERM, SQLITE_READONLY, SQLITE_AUTH -> new Failure.Fault(Failure.Cause.PRIVILEGE);
            case SQLITE_FULL, SQLITE_NOMEM, SQLITE_IOERR -> new Failure.Fault(Failure.Cause.OUT_OF_RESOURCES);
            default -> message.contains("no such table") || message.contains("no such column")
                    ? new Failure.Fault(Failure.Cause.MISSING_OBJECT)
                    : message.contains("database is locked") ? new Failure.Transient() : new Failure.Fault(Failure.Cause.OTHER);
        };
    }
}
