package dev.tidemark.connector.watermark;

import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.SourceSql;
import dev.tidemark.jdbc.SourceTable;
import dev.tidemark.sink.UsageException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The source table and columns the settings name, looked up in the source: one the source lacks is a
 * {@link UsageException} (the settings must change; exit code 2), not a failure of the data.
 */
final class NamedSource {
    private NamedSource() {
    }

    static SourceTable describe(Connection source, SourceSql sql, TableId id) throws SQLException {
        try {
            return SourceTable.describe(source, sql, id);
        } catch (IllegalArgumentException e) {
            throw UsageException.of(e);
        }
    }

    static SourceColumn require(SourceTable table, String column, String role) {
        try {
            return table.require(column, role);
        } catch (IllegalArgumentException e) {
            throw UsageException.of(e);
        }
    }
}
