package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.Messages;
import dev.tidemark.jdbc.SinkException;
import dev.tidemark.jdbc.SqlFailures;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a failed batch into the sink's one-line {@link SinkException}, after the batch was rolled back: classified by
 * {@link SqlFailures}, naming the table at fault and what to do. A missing table the sink wrote before is reported as
 * dropped (with the recovery); a missing privilege names the privileges the sink's user lacks where the engine can
 * tell. Reads the catalog on the sink's connection, only for faults, and rolls back after.
 */
final class ApplyFailures {
    private static final Logger log = LoggerFactory.getLogger(ApplyFailures.class);

    private final Connection connection;
    private final Dialect dialect;
    private final TargetTables tables;

    ApplyFailures(Connection connection, Dialect dialect, TargetTables tables) {
        this.connection = connection;
        this.dialect = dialect;
        this.tables = tables;
    }

    SinkException describe(String table, int events, Exception e) {
        Failure failure = SqlFailures.classify(e);
        String where = "table " + table + " (" + dialect.name() + ")";
        if (!(failure instanceof Failure.Fault fault)) {
            return new SinkException("cannot apply batch of " + events + " events to " + where + ": " + Messages.oneLine(e), e, failure);
        }
        String detail = "";
        try {
            if (fault.cause() == Failure.Cause.MISSING_OBJECT && tables.wasDropped(table)) {
                return tables.dropped(table, e);
            }
            if (fault.cause() == Failure.Cause.PRIVILEGE) {
                List<String> missing = missingPrivileges(table);
                detail = missing.isEmpty() ? "" : " (missing privilege " + String.join(", ", missing) + " on table " + table + ")";
            }
        } catch (SQLException | RuntimeException inspect) {
            log.debug("could not inspect table {} after a failure: {}", table, inspect.getMessage());
        } finally {
            try {
                connection.rollback();
            } catch (SQLException ignored) {
                // the connection is reported by the failure itself
            }
        }
        return new SinkException(where + ": " + Messages.oneLine(e) + detail + ": " + fault.advice(), e, failure);
    }

    private List<String> missingPrivileges(String table) throws SQLException {
        Optional<String> sql = dialect.missingPrivilegesQuery();
        List<String> out = new ArrayList<>();
        if (sql.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = connection.prepareStatement(sql.get())) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
