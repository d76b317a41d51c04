package dev.tidemark.jdbc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Optional;

/**
 * One database engine, chosen once from a JDBC URL by {@link Databases#forUrl}: the single place where everything
 * that differs between engines lives. One class per engine ({@link SqliteDatabase}, {@link PostgresDatabase},
 * {@link MariaDbDatabase}), each extending its role classes in its own package ({@code postgres}, {@code mariadb},
 * {@code sqlite}: {@code *Source} extends {@code *Target}; {@code *Checksums} and a {@code *Types} list of the type
 * families of {@link dev.tidemark.jdbc.types} beside them), plus {@link OtherJdbcDatabase}, the standard-SQL fallback
 * for any other JDBC URL (a source only: reconcile and watermark read it; the sink refuses it). The default methods
 * here and in {@link SourceSql} are that standard SQL; an engine overrides only what differs.
 *
 * <p>Facets: the database is its own {@link SourceSql} (metadata and reads, quoting); {@link #target()} is the
 * sink's {@link Dialect} (DDL, type mapping, writes) where the engine can be a target; {@link #checksumSql()} is the
 * canonical checksum SQL where segment checksums can be computed inside the database; the remaining methods are
 * how reconcile reads by key and in key order; {@link #classify} and {@link #retryPolicy()} say what a failure
 * means and how often it is retried. Capabilities an engine lacks are empty {@link Optional}s, never nulls.
 *
 * <p>Implementations are stateless and thread-safe. Identifiers are untrusted and always quoted with embedded quote
 * characters doubled; values are always bound.
 */
public sealed interface Database extends SourceSql permits SqliteDatabase, PostgresDatabase, MariaDbDatabase, OtherJdbcDatabase {

    /** The sink's facet: present for engines the sink can write to (those that are their own {@link Dialect}). */
    default Optional<Dialect> target() {
        return this instanceof Dialect dialect ? Optional.of(dialect) : Optional.empty();
    }

    /** Canonical row text and checksums in SQL, present where segment checksums can be computed inside the database. */
    default Optional<ChecksumSql> checksumSql() {
        return Optional.empty();
    }

    /** How reconcile best streams many rows out of this engine. */
    default ReadPath readPath() {
        return ReadPath.RESULT_SET;
    }

    /**
     * The ORDER BY term for a key column so that the database sorts rows the way reconcile's KeyOrder compares
     * canonical text: byte (code point) order for text on every engine, never the locale's collation. Numbers and
     * date-times sort natively. The default leaves the column as it is.
     */
    default String orderTerm(String quotedColumn, ValueKind kind) {
        return quotedColumn;
    }

    /** The key column as compared with a bound canonical key value; the default is the column itself. */
    default String keyTerm(String quotedColumn, ValueKind kind) {
        return quotedColumn;
    }

    /** How a bound key value is written in a predicate on a column of {@code declaredType}; the default is {@code ?}. */
    default String keyParameter(ValueKind kind, String declaredType) {
        return "?";
    }

    /**
     * Binds a key value given as canonical text in the type this engine compares the column with. The default binds
     * native types, a zoned timestamp as its UTC wall-clock time (for sessions that run in UTC).
     */
    default void bindKey(PreparedStatement ps, int i, ValueKind kind, String text) throws SQLException {
        switch (kind) {
            case INTEGER -> ps.setLong(i, Long.parseLong(text));
            case DECIMAL -> ps.setBigDecimal(i, new BigDecimal(text));
            case FLOAT -> ps.setDouble(i, Double.parseDouble(text));
            case BOOLEAN -> ps.setBoolean(i, Boolean.parseBoolean(text));
            case TIMESTAMPTZ -> ps.setObject(i, zonedKey(OffsetDateTime.parse(text)));
            case TIMESTAMP, DATE, TIME -> ps.setObject(i, kind.eventValue(text));
            case BYTES -> ps.setBytes(i, HexFormat.of().parseHex(text));
            case TEXT -> ps.setString(i, text);
        }
    }

    /** A zoned key value as {@link #bindKey} binds it: its UTC wall-clock time unless the engine has zoned values. */
    default Object zonedKey(OffsetDateTime t) {
        return t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
    }

    /** Whether reads run in a transaction (needed for cursors and streaming); the reader commits after each read. */
    default boolean readsInTransaction() {
        return true;
    }

    /** Session set-up for a connection reconcile opened itself (not one it was handed). */
    default void configureReadSession(Connection c) throws SQLException {
        // nothing by default
    }

    /**
     * The statistics' row estimate of a table given both quoted ({@code quotedTable}, qualified where it has a
     * schema) and bare ({@code tableName}), or -1 where the engine keeps none.
     */
    default long estimatedRows(Connection c, String quotedTable, String tableName) throws SQLException {
        return -1;
    }

    /** {@code SELECT} of the position a report holds at (the WAL position on PostgreSQL), empty where there is none. */
    default Optional<String> positionQuery() {
        return Optional.empty();
    }

    /** What a failure at this database means (see {@link SqlFailures}). */
    default Failure classify(Throwable failure) {
        return SqlFailures.classify(failure);
    }

    /** How transient failures of this database are retried. */
    default RetryPolicy retryPolicy() {
        return RetryPolicy.DEFAULT;
    }
}
