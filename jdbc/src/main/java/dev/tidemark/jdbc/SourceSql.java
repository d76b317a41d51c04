package dev.tidemark.jdbc;

import dev.tidemark.event.TableId;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.Temporal;
import java.util.Optional;

/**
 * The <em>source</em> facet of a {@link Database}: what reading a table needs — identifier quoting, the table's
 * metadata, reading values into the event's Java types, binding cursor values, and the database's clock. Every engine
 * has one (the {@link Database} is its own source facet); pick it with {@link Databases#forUrl}. SQLite keeps
 * date-times as text, so its cursor values stay text ({@link CursorValue.Text}) and are compared as text
 * ({@link #temporalsAsText()}); server databases use their native types. Identifiers are untrusted and always quoted
 * with embedded quote characters doubled; values are always bound. Implementations are stateless and thread-safe.
 */
public sealed interface SourceSql extends EngineNaming permits Database {

    /** The table's columns and primary key as its metadata declares them; no columns when it does not exist. */
    default SourceTable readTable(Connection c, TableId id) throws SQLException {
        return CatalogMetadata.table(c, this, id);
    }

    /** Whether an index of the table has {@code column} as its first column. */
    default boolean hasIndexStartingWith(Connection c, SourceTable table, String column) throws SQLException {
        return CatalogMetadata.hasIndexStartingWith(c, this, table, column);
    }

    /** Whether JDBC metadata calls take the schema as the catalog argument (MariaDB/MySQL: a database is a catalog). */
    default boolean catalogIsSchema() {
        return false;
    }

    /** Whether date-time columns hold text (compared as text, cursor values as {@link CursorValue.Text}). */
    default boolean temporalsAsText() {
        return false;
    }

    /** An SQL expression of the current time as the engine stores date-times, for suggested fixes. */
    default String nowExpression() {
        return "CURRENT_TIMESTAMP";
    }

    /** Whether {@code EXPLAIN <query>} returns a readable plan worth quoting in a warning. */
    default boolean explainsPlans() {
        return false;
    }

    default String qualified(TableId table) {
        return table.schema().isEmpty() ? quote(table.table()) : quote(table.schema()) + "." + quote(table.table());
    }

    /** Reads column {@code i} as the event value of {@code column}'s kind (see {@link ColumnKind}). */
    default Object read(ResultSet rs, int i, SourceColumn column) throws SQLException {
        Object v = switch (column.kind()) {
            case INTEGER -> rs.getLong(i);
            case DOUBLE -> rs.getDouble(i);
            case DECIMAL -> {
                BigDecimal d = rs.getBigDecimal(i);
                yield d == null || column.type().scale() < 0 ? d : d.setScale(column.type().scale(), RoundingMode.HALF_EVEN);
            }
            case BOOLEAN -> rs.getBoolean(i);
            case ZONED -> {
                OffsetDateTime o = rs.getObject(i, OffsetDateTime.class);
                yield o == null ? null : o.toInstant();
            }
            case LOCAL -> rs.getObject(i, LocalDateTime.class);
            case DATE -> rs.getObject(i, LocalDate.class);
            case BYTES -> rs.getBytes(i);
            case TEXT -> rs.getString(i);
        };
        return rs.wasNull() ? null : v;
    }

    /** Reads a cursor column value as a {@link CursorValue}, or null. */
    default CursorValue readCursorValue(ResultSet rs, int i, ColumnKind kind) throws SQLException {
        Object v = switch (kind) {
            case INTEGER -> new CursorValue.Number(rs.getLong(i));
            case ZONED -> {
                OffsetDateTime o = rs.getObject(i, OffsetDateTime.class);
                yield o == null ? null : new CursorValue.Zoned(o.toInstant());
            }
            case LOCAL -> {
                LocalDateTime t = rs.getObject(i, LocalDateTime.class);
                yield t == null ? null : new CursorValue.Local(t);
            }
            case DATE -> {
                LocalDate d = rs.getObject(i, LocalDate.class);
                yield d == null ? null : new CursorValue.Day(d);
            }
            default -> throw new IllegalArgumentException("a " + kind + " column cannot be a cursor");
        };
        return rs.wasNull() ? null : (CursorValue) v;
    }

    default void bindCursorValue(PreparedStatement ps, int i, CursorValue m) throws SQLException {
        if (m instanceof CursorValue.Zoned z) {
            ps.setObject(i, OffsetDateTime.ofInstant(z.value(), ZoneOffset.UTC));
        } else if (m instanceof CursorValue.Local l) {
            ps.setObject(i, l.value());
        } else if (m instanceof CursorValue.Day d) {
            ps.setObject(i, d.value());
        } else if (m instanceof CursorValue.Number n) {
            ps.setLong(i, n.value());
        } else {
            ps.setString(i, ((CursorValue.Text) m).raw());
        }
    }

    /** Binds a key value as read by {@link #read}. */
    default void bindValue(PreparedStatement ps, int i, Object v) throws SQLException {
        if (v instanceof Instant t) {
            ps.setObject(i, OffsetDateTime.ofInstant(t, ZoneOffset.UTC));
        } else {
            ps.setObject(i, v);
        }
    }

    /**
     * The database clock minus {@code delay}, as a value comparable with {@code sample} (same kind and, for text,
     * the same shape), truncated downwards where the kind is coarser.
     */
    default CursorValue clockMinus(Connection c, CursorValue sample, Duration delay) throws SQLException {
        if (sample instanceof CursorValue.Zoned) {
            return new CursorValue.Zoned(queryOne(c, "SELECT CURRENT_TIMESTAMP", rs -> rs.getObject(1, OffsetDateTime.class).toInstant()).minus(delay));
        }
        if (sample instanceof CursorValue.Local) {
            return new CursorValue.Local(queryOne(c, localNowSql(), rs -> rs.getObject(1, LocalDateTime.class)).minus(delay));
        }
        if (sample instanceof CursorValue.Day) {
            return new CursorValue.Day(queryOne(c, localNowSql(), rs -> rs.getObject(1, LocalDateTime.class)).toLocalDate()).minus(delay);
        }
        if (sample instanceof CursorValue.Text t) {
            // SQLite's clock is the machine's, in UTC; written in the column's own shape
            TextTime shape = TextTime.parse(t.raw()).orElseThrow(() -> new IllegalArgumentException(
                    "cursor value '" + t.raw() + "' is not a date-time text; a settle delay needs one"));
            Temporal now = Instant.now().minus(delay);
            return new CursorValue.Text(TextTime.format(now, shape.shape()));
        }
        throw new IllegalArgumentException("a settle delay applies to timestamp cursors, not ids");
    }

    /** The session's wall-clock now ({@code timestamp without time zone}). */
    String localNowSql();

    /** The session time zone setting, for the time-zone probe: the first column of {@link #sessionTimeZoneQuery()}. */
    default Optional<String> sessionTimeZone(Connection c) throws SQLException {
        Optional<String> query = sessionTimeZoneQuery();
        return query.isEmpty() ? Optional.empty() : Optional.of(queryOne(c, query.get(), rs -> rs.getString(1)));
    }

    /** The {@code SELECT} of the session time zone setting (one row, one text column), empty where there is none. */
    default Optional<String> sessionTimeZoneQuery() {
        return Optional.empty();
    }

    interface RowFunction<T> {
        T apply(ResultSet rs) throws SQLException;
    }

    static <T> T queryOne(Connection c, String sql, RowFunction<T> f) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) {
                throw new SQLException("no row from " + sql);
            }
            return f.apply(rs);
        }
    }
}
