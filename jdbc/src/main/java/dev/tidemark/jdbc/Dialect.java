package dev.tidemark.jdbc;

import dev.tidemark.event.ColumnType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

/**
 * What differs between target databases: identifier quoting, type mapping, upsert and delete shapes, value binding
 * and connection set-up. Implementations are stateless and thread-safe.
 *
 * <p>Identifiers passed in come from events and are untrusted: every implementation quotes them with embedded quote
 * characters doubled. Values are always bound, never inlined.
 */
public sealed interface Dialect permits SqliteDialect, PostgresDialect, MariaDbDialect {

    /** Picks the dialect for a JDBC URL, or fails naming the URL scheme. */
    static Dialect forUrl(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:sqlite:")) {
            return new SqliteDialect();
        }
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            return new PostgresDialect();
        }
        if (jdbcUrl.startsWith("jdbc:mariadb:") || jdbcUrl.startsWith("jdbc:mysql:")) {
            return new MariaDbDialect();
        }
        int colon = jdbcUrl.indexOf(':', 5);
        String scheme = colon > 0 ? jdbcUrl.substring(0, colon) : jdbcUrl;
        throw new IllegalArgumentException("unsupported target " + scheme
                + " (supported: jdbc:sqlite, jdbc:postgresql, jdbc:mariadb)");
    }

    String name();

    /** Driver properties the dialect relies on (merged under the user's own). */
    default Properties connectionDefaults() {
        return new Properties();
    }

    /** Quotes one identifier, doubling embedded quote characters. */
    String quote(String identifier);

    /** Session set-up run once per connection (pragmas, session settings). */
    void configure(Connection connection) throws SQLException;

    /** The column type to create for a source column; {@code key} when it is part of the primary key. */
    String columnType(ColumnType type, boolean key);

    /** The type of Tidemark's own text columns that take part in keys (pipeline, topic). */
    String textType();

    /** The type of the row position column: compared as bytes, so string order is position order. */
    default String positionType() {
        return textType();
    }

    /** SQL that changes a column's type (a widening), or null where the engine needs none (SQLite's affinity). */
    String alterColumnType(String table, String column, String type);

    /** The type of Tidemark's own 64-bit integer columns. */
    String bigintType();

    /**
     * An upsert of one row that leaves the stored row alone when its position is newer than the incoming one.
     * {@code columns} ends with the position column; {@code updateColumns} are the non-key columns to overwrite.
     * With a null {@code positionColumn} the update is unconditional.
     */
    String upsert(String table, List<String> columns, List<String> keyColumns, List<String> updateColumns, String positionColumn);

    /**
     * A query with one bound parameter (the table name) returning the names of that table's columns in its first
     * column; no rows when the table does not exist.
     */
    String columnsQuery();

    /**
     * A delete of many rows by key in one statement, or null where the engine has none (the sink then deletes row by
     * row). The statement binds one text array per key column (cast to {@code keyTypes}, the key columns' types as
     * {@link #columnTypesQuery()} names them) and one text array of positions; a row is deleted unless its stored
     * position is newer than the one deleting it (a null position deletes unconditionally).
     */
    default String deleteMany(String table, List<String> keyColumns, List<String> keyTypes, String positionColumn) {
        return null;
    }

    /**
     * {@link #upsert} of many rows in one statement, or null where the engine has none (the sink then sends one row
     * per batch entry). The statement binds one text array per column, cast on the server to {@code types} (the
     * columns' types as {@link #columnTypesQuery()} names them).
     */
    default String upsertMany(String table, List<String> columns, List<String> types, List<String> keyColumns,
                              List<String> updateColumns, String positionColumn) {
        return null;
    }

    /** A value as an element of the text arrays {@link #upsertMany} and {@link #deleteMany} bind (only for engines that have them). */
    default String arrayElement(Object value) {
        throw new UnsupportedOperationException(name() + " has no set-based statements");
    }

    /**
     * A query with one bound parameter (the quoted table name) returning each column's name and the engine's name
     * of its type, or null where set-based statements are not used.
     */
    default String columnTypesQuery() {
        return null;
    }

    /**
     * A query with one bound parameter (the table name) returning the names of the privileges the sink writes with
     * (SELECT, INSERT, UPDATE, DELETE) that the current user lacks on that table, or null where the engine's own
     * message already names them.
     */
    default String missingPrivilegesQuery() {
        return null;
    }

    /**
     * The column types of a new table's primary key columns, by column name. The default is {@link #columnType} of
     * each key column; an engine whose index has a size limit sizes text keys to fit it whole.
     *
     * @throws SinkException naming table and column when the key cannot be indexed whole
     */
    default java.util.Map<String, String> keyColumnTypes(String table, dev.tidemark.event.RowSchema schema) {
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        for (dev.tidemark.event.Column c : schema.columns()) {
            if (schema.keyColumns().contains(c.name())) {
                out.put(c.name(), columnType(c.type(), true));
            }
        }
        return out;
    }

    /** Binds one decoded value ({@link dev.tidemark.event.ChangeEvent} value types) at {@code index}. */
    void bind(PreparedStatement statement, int index, Object value, ColumnType type) throws SQLException;
}
