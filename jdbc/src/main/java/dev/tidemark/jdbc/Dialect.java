package dev.tidemark.jdbc;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.TargetTypes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The <em>target</em> facet of a {@link Database}: what the sink needs to create and write tables — identifier
 * quoting, type mapping, upsert and delete shapes, value binding and connection set-up. Reached through
 * {@link Database#target()} or {@link Databases#targetForUrl}; only engines the sink can write to have one.
 * Implementations are each engine's target role ({@code postgres.PostgresTarget}, {@code mariadb.MariaDbTarget},
 * {@code sqlite.SqliteTarget}), which the engine class of the registry extends; they are stateless and thread-safe.
 *
 * <p>Identifiers passed in come from events and are untrusted: every implementation quotes them with embedded quote
 * characters doubled. Values are always bound, never inlined. What an engine lacks is an empty {@link Optional}
 * ({@link #setWrites()}, {@link #alterColumnType}, {@link #missingPrivilegesQuery()}), never a null.
 */
public interface Dialect extends EngineNaming {

    /** Driver properties the dialect relies on (merged under the user's own). */
    default Properties connectionDefaults() {
        return new Properties();
    }

    /** Session set-up run once per connection (pragmas, session settings). */
    void configure(Connection connection) throws SQLException;

    /** The engine's column type families ({@link TargetTypes}): the DDL of a column and the binding of a value. */
    TargetTypes types();

    /** The column type to create for a source column; {@code key} when it is part of the primary key. */
    default String columnType(ColumnType type, boolean key) {
        return types().ddl(type, key);
    }

    /** The type of Tidemark's own text columns that take part in keys (pipeline, topic); {@code TEXT} by default. */
    default String textType() {
        return "TEXT";
    }

    /** The type of the row position column: compared as bytes, so string order is position order. */
    default String positionType() {
        return textType();
    }

    /**
     * SQL that changes a column's type (a widening), or empty where the engine needs none (SQLite's affinity);
     * {@code ALTER TABLE t ALTER COLUMN c TYPE type} by default.
     */
    default Optional<String> alterColumnType(String table, String column, String type) {
        return Optional.of("ALTER TABLE " + quote(table) + " ALTER COLUMN " + quote(column) + " TYPE " + type);
    }

    /**
     * SQL that changes a column to any other type, casting each value (it fails where a value does not cast), or empty
     * where the engine needs none; {@link #alterColumnType} by default.
     */
    default Optional<String> retypeColumn(String table, String column, String type) {
        return alterColumnType(table, column, type);
    }

    /**
     * Statements that change primary key column {@code column} of {@code table} to {@code type}, casting each value; they
     * fail, changing nothing, where a value does not cast or two keys become one. {@link #retypeColumn} by default.
     */
    default List<String> retypeKeyColumn(Connection connection, String table, String column, String type) throws SQLException {
        return retypeColumn(table, column, type).stream().toList();
    }

    /** The type of Tidemark's own 64-bit integer columns; {@code BIGINT} by default. */
    default String bigintType() {
        return "BIGINT";
    }

    /**
     * An upsert of one row that leaves the stored row alone when its position is newer than the incoming one.
     * {@code columns} ends with the position column; {@code updateColumns} are the non-key columns to overwrite.
     * With a null {@code positionColumn} the update is unconditional. The default is the standard
     * {@code INSERT … ON CONFLICT … DO UPDATE … WHERE} shape (SQLite, PostgreSQL).
     */
    default String upsert(String table, List<String> columns, List<String> keyColumns, List<String> updateColumns, String positionColumn) {
        return new WriteStatements(this::quote).onConflictUpsert(table, columns, WriteStatements.values(columns.size()), keyColumns,
                updateColumns, positionColumn);
    }

    /**
     * A query with one bound parameter (the table name) returning the names of that table's columns in its first
     * column; no rows when the table does not exist.
     */
    String columnsQuery();

    /**
     * Set-based statements (one statement per batch, values bound as arrays), or empty where the engine has none:
     * the sink then writes row by row. The sink picks its table-writer strategy from this capability once.
     */
    default Optional<SetWrites> setWrites() {
        return Optional.empty();
    }

    /**
     * A query with one bound parameter (the table name) returning the names of the privileges the sink writes with
     * (SELECT, INSERT, UPDATE, DELETE) that the current user lacks on that table, or empty where the engine's own
     * message already names them.
     */
    default Optional<String> missingPrivilegesQuery() {
        return Optional.empty();
    }

    /**
     * What follows {@code SELECT <constants>} when a {@code WHERE} clause comes next: {@code " FROM DUAL"} on engines
     * that require a table there (MariaDB), else nothing.
     */
    default String constantsFrom() {
        return "";
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

    /**
     * The one-line refusal of a pre-existing {@code table} whose primary key columns compare text in a way that would
     * merge distinct source keys (a case-, accent- or pad-insensitive collation), or empty. Reads the catalog; the
     * default is empty (keys compare as stored).
     */
    default Optional<String> mergingKeyCollation(Connection connection, String table) throws SQLException {
        return Optional.empty();
    }

    /**
     * Binds one decoded value ({@link dev.tidemark.event.ChangeEvent} value types) at {@code index}: through the
     * value's family in {@link #types()} by default.
     */
    default void bind(PreparedStatement statement, int index, Object value, ColumnType type) throws SQLException {
        types().bind(statement, index, value);
    }
}
