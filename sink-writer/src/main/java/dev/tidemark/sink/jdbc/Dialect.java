package dev.tidemark.sink.jdbc;

import dev.tidemark.sink.event.ColumnType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * What differs between target databases: identifier quoting, type mapping, upsert and delete shapes, value binding
 * and connection set-up. Implementations are stateless and thread-safe.
 *
 * <p>Identifiers passed in come from events and are untrusted: every implementation quotes them with embedded quote
 * characters doubled. Values are always bound, never inlined.
 */
public sealed interface Dialect permits SqliteDialect {

    /** Picks the dialect for a JDBC URL, or fails naming the URL scheme. */
    static Dialect forUrl(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:sqlite:")) {
            return new SqliteDialect();
        }
        String scheme = jdbcUrl.indexOf(':', 5) > 0 ? jdbcUrl.substring(0, jdbcUrl.indexOf(':', 5)) : jdbcUrl;
        throw new IllegalArgumentException("unsupported target " + scheme + " (supported: jdbc:sqlite)");
    }

    String name();

    /** Quotes one identifier, doubling embedded quote characters. */
    String quote(String identifier);

    /** Session set-up run once per connection (pragmas, session settings). */
    void configure(Connection connection) throws SQLException;

    /** The column type to create for a source column. */
    String columnType(ColumnType type);

    /** The type of Tidemark's own text columns (positions, offsets' topic names). */
    String textType();

    /** The type of Tidemark's own 64-bit integer columns. */
    String bigintType();

    /**
     * {@code INSERT … ON CONFLICT (keys) DO UPDATE SET updates} that leaves the row alone when the stored
     * position is newer than the incoming one. {@code columns} includes the position column last. With a null
     * {@code positionColumn} the update is unconditional.
     */
    String upsert(String table, List<String> columns, List<String> keyColumns, List<String> updateColumns, String positionColumn);

    /**
     * A query with one bound parameter (the table name) returning the names of that table's columns in its first
     * column; no rows when the table does not exist.
     */
    String columnsQuery();

    /** Binds one decoded value ({@link dev.tidemark.sink.event.ChangeEvent} value types) at {@code index}. */
    void bind(PreparedStatement statement, int index, Object value, ColumnType type) throws SQLException;
}
