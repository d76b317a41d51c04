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
 * What differs between watermark <em>source</em> databases: identifier quoting, reading values into the event's
 * Java types, binding cursor values, and the database's clock. SQLite keeps date-times as text, so its cursor
 * values stay text ({@link CursorValue.Text}) and are compared as text; server databases use their native types.
 * Identifiers are untrusted and always quoted with embedded quote characters doubled; values are always bound.
 */
public sealed interface SourceSql permits SourceSql.Postgres, SourceSql.MariaDb, SourceSql.Sqlite, SourceSql.Generic {

    String name();

    String quote(String identifier);

    static SourceSql forUrl(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:sqlite:")) {
            return new Sqlite();
        }
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            return new Postgres();
        }
        if (jdbcUrl.startsWith("jdbc:mariadb:") || jdbcUrl.startsWith("jdbc:mysql:")) {
            return new MariaDb();
        }
        return new Generic();
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

    /** The session time zone setting, for the time-zone probe. */
    default Optional<String> sessionTimeZone(Connection c) throws SQLException {
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

    /** PostgreSQL: native types; {@code CURRENT_TIMESTAMP}/{@code LOCALTIMESTAMP} as the clock. */
    record Postgres() implements SourceSql {
        @Override
        public String name() {
            return "postgresql";
        }

        @Override
        public String quote(String identifier) {
            return Identifiers.doubleQuoted(identifier);
        }

        @Override
        public String localNowSql() {
            return "SELECT LOCALTIMESTAMP";
        }

        @Override
        public Optional<String> sessionTimeZone(Connection c) throws SQLException {
            return Optional.of(queryOne(c, "SHOW TimeZone", rs -> rs.getString(1)));
        }
    }

    /** MariaDB/MySQL: backtick quoting; DATETIME and TIMESTAMP read as session wall-clock time. */
    record MariaDb() implements SourceSql {
        @Override
        public String name() {
            return "mariadb";
        }

        @Override
        public String quote(String identifier) {
            return Identifiers.backticked(identifier);
        }

        @Override
        public String localNowSql() {
            return "SELECT NOW(6)";
        }

        @Override
        public Optional<String> sessionTimeZone(Connection c) throws SQLException {
            return Optional.of(queryOne(c, "SELECT CONCAT(@@session.time_zone, ' (system ', @@system_time_zone, ')')", rs -> rs.getString(1)));
        }
    }

    /** SQLite: values by declared type; date-times stay text and compare as text. */
    record Sqlite() implements SourceSql {
        @Override
        public String name() {
            return "sqlite";
        }

        @Override
        public String quote(String identifier) {
            return Identifiers.doubleQuoted(identifier);
        }

        @Override
        public String localNowSql() {
            return "SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')";
        }

        @Override
        public Object read(ResultSet rs, int i, SourceColumn column) throws SQLException {
            Object raw = rs.getObject(i);
            if (raw == null) {
                return null;
            }
            String text = raw instanceof byte[] ? null : raw.toString();
            return switch (column.kind()) {
                case INTEGER -> raw instanceof Number n ? n.longValue() : Long.parseLong(text.trim());
                case DOUBLE -> raw instanceof Number n ? n.doubleValue() : Double.parseDouble(text.trim());
                case DECIMAL -> {
                    BigDecimal d = new BigDecimal(text.trim());
                    yield column.type().scale() < 0 ? d : d.setScale(column.type().scale(), RoundingMode.HALF_EVEN);
                }
                case BOOLEAN -> raw instanceof Number n ? n.longValue() != 0
                        : text.equalsIgnoreCase("true") || text.equalsIgnoreCase("t") || text.equals("1");
                case ZONED, LOCAL, DATE -> temporal(text, column);
                case BYTES -> raw instanceof byte[] b ? b : text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                case TEXT -> raw instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : text;
            };
        }

        private static Object temporal(String text, SourceColumn column) {
            Temporal t = TextTime.parse(text).orElseThrow(() -> new IllegalArgumentException(
                    "column " + column.name() + " (" + column.declaredType() + "): '" + text + "' is not a date or date-time")).value();
            return switch (column.kind()) {
                case ZONED -> t instanceof Instant ? t : t instanceof LocalDateTime l ? l.toInstant(ZoneOffset.UTC)
                        : ((LocalDate) t).atStartOfDay().toInstant(ZoneOffset.UTC);
                case LOCAL -> t instanceof LocalDateTime ? t : t instanceof Instant in ? LocalDateTime.ofInstant(in, ZoneOffset.UTC)
                        : ((LocalDate) t).atStartOfDay();
                default -> t instanceof LocalDate ? t : t instanceof LocalDateTime l ? l.toLocalDate()
                        : LocalDateTime.ofInstant((Instant) t, ZoneOffset.UTC).toLocalDate();
            };
        }

        @Override
        public CursorValue readCursorValue(ResultSet rs, int i, ColumnKind kind) throws SQLException {
            Object raw = rs.getObject(i);
            if (raw == null) {
                return null;
            }
            if (kind == ColumnKind.INTEGER) {
                return new CursorValue.Number(raw instanceof Number n ? n.longValue() : Long.parseLong(raw.toString().trim()));
            }
            if (kind.temporal()) {
                return new CursorValue.Text(raw.toString());
            }
            throw new IllegalArgumentException("a " + kind + " column cannot be a cursor");
        }

        @Override
        public void bindValue(PreparedStatement ps, int i, Object v) throws SQLException {
            if (v instanceof BigDecimal d) {
                ps.setString(i, d.toPlainString());
            } else if (v instanceof Boolean b) {
                ps.setInt(i, b ? 1 : 0);
            } else if (v instanceof Temporal t) {
                ps.setString(i, t.toString());
            } else {
                ps.setObject(i, v);
            }
        }
    }

    /** Any other JDBC database: standard SQL, the JVM clock for the settle delay. */
    record Generic() implements SourceSql {
        @Override
        public String name() {
            return "jdbc";
        }

        @Override
        public String quote(String identifier) {
            return Identifiers.doubleQuoted(identifier);
        }

        @Override
        public String localNowSql() {
            return "SELECT LOCALTIMESTAMP";
        }
    }
}
