package dev.tidemark.jdbc;

import dev.tidemark.event.ColumnType;
import dev.tidemark.event.TableId;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.Temporal;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * SQLite: the engine whose date-times, decimals and booleans are text or integers by type affinity.
 *
 * <p>As a target, type affinity decides how SQLite stores a value, so exact types are stored as text: decimals as
 * their plain decimal string (a NUMERIC affinity would round them through a double), timestamps as ISO-8601 text
 * with their full fraction ({@code 2024-05-01T10:15:30.123456Z} for zoned values, no zone for local ones). The
 * declared type keeps the source meaning ({@code DECIMAL_TEXT(12,2)}, {@code TIMESTAMPTZ_TEXT}) while containing
 * "TEXT", which gives the column TEXT affinity.
 *
 * <p>Connections run in WAL mode with {@code synchronous=NORMAL}: a process crash never loses a commit; a power
 * loss can lose the last commits, together with their offsets, so they are re-applied from Kafka.

 *
 * <p>As a source, values are read by declared type; date-times stay text and compare as text (cursor values are
 * {@link CursorValue.Text}); the clock is the machine's, in UTC. Reconcile compares text keys byte-wise
 * ({@code COLLATE BINARY}), decimals kept as text numerically and in canonical form, and streams rows as one text per
 * row ({@link ReadPath#ROW_TEXT}); there are no in-database checksums and no row estimate.
 */
public final class SqliteDatabase implements Database, Dialect {

    @Override
    public String name() {
        return "sqlite";
    }

    @Override
    public String quote(String identifier) {
        return Identifiers.doubleQuoted(identifier);
    }

    @Override
    public void configure(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("PRAGMA synchronous=NORMAL");
            s.execute("PRAGMA busy_timeout=3000");
        }
    }

    @Override
    public String columnType(ColumnType type, boolean key) {
        String logical = type.logicalName() == null ? "" : type.logicalName();
        switch (logical) {
            case ColumnType.DECIMAL -> {
                int p = type.precision();
                int s = type.scale();
                return p > 0 ? "DECIMAL_TEXT(" + p + "," + Math.max(s, 0) + ")" : "DECIMAL_TEXT";
            }
            case ColumnType.VARIABLE_SCALE_DECIMAL -> {
                return "DECIMAL_TEXT";
            }
            case ColumnType.ZONED_TIMESTAMP -> {
                return "TIMESTAMPTZ_TEXT";
            }
            case ColumnType.TIMESTAMP_MILLIS, ColumnType.TIMESTAMP_MICROS, ColumnType.TIMESTAMP_NANOS, ColumnType.CONNECT_TIMESTAMP -> {
                return "TIMESTAMP_TEXT";
            }
            case ColumnType.DATE, ColumnType.CONNECT_DATE -> {
                return "DATE_TEXT";
            }
            case ColumnType.TIME_MILLIS, ColumnType.TIME_MICROS, ColumnType.TIME_NANOS, ColumnType.ZONED_TIME -> {
                return "TIME_TEXT";
            }
            case ColumnType.JSON -> {
                return "JSON_TEXT";
            }
            case ColumnType.UUID -> {
                return "UUID_TEXT";
            }
            default -> {
                // fall through to the physical type
            }
        }
        return switch (type.connectType()) {
            case "int8", "int16", "int32", "int64" -> "INTEGER";
            case "boolean" -> "BOOLEAN_INTEGER";
            case "float", "double", "float32", "float64" -> "REAL";
            case "bytes" -> "BLOB";
            default -> "TEXT";
        };
    }

    @Override
    public Optional<String> alterColumnType(String table, String column, String type) {
        return Optional.empty(); // a column's declared type only sets its affinity: wider values already fit
    }

    /** SQLite cannot change a key column's declared type in place: the table is rebuilt ({@link SqliteKeyRetype}). */
    @Override
    public List<String> retypeKeyColumn(Connection connection, String table, String column, String type) throws SQLException {
        return SqliteKeyRetype.statements(connection, table, column, type, this::quote);
    }

    @Override
    public String bigintType() {
        return "INTEGER";
    }

    /**
     * Key columns of a pre-existing table whose primary key index compares text by other than {@code BINARY}
     * ({@code NOCASE}, {@code RTRIM}): {@code ON CONFLICT} would take distinct keys for one.
     */
    @Override
    public Optional<String> mergingKeyCollation(Connection connection, String table) throws SQLException {
        String sql = "SELECT x.name, x.coll FROM pragma_index_list(?) AS l, pragma_index_xinfo(l.name) AS x "
                + "WHERE l.origin = 'pk' AND x.key = 1 AND x.coll IS NOT NULL AND upper(x.coll) <> 'BINARY'";
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return Optional.of(MergingKeys.refusal(table, rs.getString(1), rs.getString(2),
                            "compares keys that differ in case or trailing spaces as equal",
                            "re-create table " + table + " with column " + rs.getString(1) + " COLLATE BINARY (byte-exact) and copy its rows over"));
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public String columnsQuery() {
        return "SELECT name FROM pragma_table_info(?)";
    }

    @Override
    public void bind(PreparedStatement statement, int index, Object value, ColumnType type) throws SQLException {
        if (Binding.bindPortable(statement, index, value)) {
            return;
        }
        if (value instanceof Boolean b) {
            statement.setInt(index, b ? 1 : 0);
        } else if (value instanceof BigDecimal d) {
            statement.setString(index, d.toPlainString());
        } else if (value instanceof Instant i) {
            statement.setString(index, TemporalText.instant(i));
        } else if (value instanceof LocalDateTime t) {
            statement.setString(index, TemporalText.localDateTime(t));
        } else if (value instanceof LocalTime t) {
            statement.setString(index, TemporalText.localTime(t));
        } else {
            statement.setString(index, value.toString()); // LocalDate's ISO form, and anything else as text
        }
    }

    // ---- source: metadata and reads

    @Override
    public Optional<Dialect> target() {
        return Optional.of(this);
    }

    @Override
    public SourceTable readTable(Connection c, TableId id) throws SQLException {
        return SqliteCatalog.table(c, this, id);
    }

    @Override
    public boolean hasIndexStartingWith(Connection c, SourceTable table, String column) throws SQLException {
        return SqliteCatalog.hasIndexStartingWith(c, this, table, column);
    }

    @Override
    public boolean temporalsAsText() {
        return true;
    }

    @Override
    public String nowExpression() {
        return "strftime('%Y-%m-%d %H:%M:%f', 'now')";
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

    // ---- reconcile: key order, key predicates, reads

    @Override
    public ReadPath readPath() {
        return ReadPath.ROW_TEXT;
    }

    @Override
    public String orderTerm(String quotedColumn, ValueKind kind) {
        return switch (kind) {
            case DECIMAL -> "CAST(" + quotedColumn + " AS NUMERIC)"; // decimals kept as text must sort as numbers
            case TEXT -> quotedColumn + " COLLATE BINARY";
            default -> quotedColumn;
        };
    }

    /** Decimals are kept as text at their own scale: compared in canonical form (no trailing zeros). */
    @Override
    public String keyTerm(String q, ValueKind kind) {
        return kind == ValueKind.DECIMAL ? "(CASE WHEN instr(" + q + ", '.') > 0 THEN rtrim(rtrim(" + q + ", '0'), '.') ELSE " + q + " END)" : q;
    }

    /** Decimals and date-times as their text, booleans as 0/1. */
    @Override
    public void bindKey(PreparedStatement ps, int i, ValueKind kind, String text) throws SQLException {
        switch (kind) {
            case DECIMAL, TIMESTAMPTZ, TIMESTAMP, DATE, TIME, TEXT -> ps.setString(i, text);
            case BOOLEAN -> ps.setInt(i, Boolean.parseBoolean(text) ? 1 : 0);
            case INTEGER -> ps.setLong(i, Long.parseLong(text));
            case FLOAT -> ps.setDouble(i, Double.parseDouble(text));
            case BYTES -> ps.setBytes(i, HexFormat.of().parseHex(text));
        }
    }

    @Override
    public boolean readsInTransaction() {
        return false;
    }
}
