package dev.tidemark.jdbc.sqlite;

import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.ColumnKind;
import dev.tidemark.jdbc.CursorValue;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.ReadPath;
import dev.tidemark.jdbc.SourceTable;
import dev.tidemark.jdbc.TextTime;
import dev.tidemark.jdbc.ValueKind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.Temporal;
import java.util.HexFormat;

/**
 * SQLite as a source and as a side reconcile reads: values are read by declared type ({@link SqliteCatalog});
 * date-times stay text and compare as text (cursor values are {@link CursorValue.Text}); the clock is the machine's,
 * in UTC. Text keys compare byte-wise ({@code COLLATE BINARY}), decimals kept as text numerically and in canonical
 * form. What differs from the standard-SQL defaults of {@link dev.tidemark.jdbc.Database};
 * {@link dev.tidemark.jdbc.SqliteDatabase}, which extends this role (itself an extension of the target role
 * {@link SqliteTarget}), takes these methods, which have {@code Database}'s signatures, as they are: rows stream as
 * one text per row ({@link ReadPath#ROW_TEXT}), reads run outside transactions, and there are no in-database
 * checksums and no row estimate. Extended only by it; stateless and thread-safe.
 */
public abstract class SqliteSource extends SqliteTarget {
    /** SQLite's clock as it stores date-times: UTC, millisecond fraction. */
    public static final String NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now')";

    public SourceTable readTable(Connection c, TableId id) throws SQLException {
        return SqliteCatalog.table(c, this::quote, id);
    }

    public boolean hasIndexStartingWith(Connection c, SourceTable table, String column) throws SQLException {
        return SqliteCatalog.hasIndexStartingWith(c, this::quote, table, column);
    }

    public boolean temporalsAsText() {
        return true;
    }

    public String nowExpression() {
        return NOW;
    }

    public String localNowSql() {
        return "SELECT " + NOW;
    }

    public ReadPath readPath() {
        return ReadPath.ROW_TEXT;
    }

    public boolean readsInTransaction() {
        return false;
    }

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

    public String orderTerm(String quotedColumn, ValueKind kind) {
        return switch (kind) {
            case DECIMAL -> "CAST(" + quotedColumn + " AS NUMERIC)"; // decimals kept as text must sort as numbers
            case TEXT -> quotedColumn + " COLLATE BINARY";
            default -> quotedColumn;
        };
    }

    /** Decimals are kept as text at their own scale: compared in canonical form (no trailing zeros). */
    public String keyTerm(String q, ValueKind kind) {
        return kind == ValueKind.DECIMAL ? "(CASE WHEN instr(" + q + ", '.') > 0 THEN rtrim(rtrim(" + q + ", '0'), '.') ELSE " + q + " END)" : q;
    }

    /** Decimals and date-times as their text, booleans as 0/1. */
    public void bindKey(PreparedStatement ps, int i, ValueKind kind, String text) throws SQLException {
        switch (kind) {
            case DECIMAL, TIMESTAMPTZ, TIMESTAMP, DATE, TIME, TEXT -> ps.setString(i, text);
            case BOOLEAN -> ps.setInt(i, Boolean.parseBoolean(text) ? 1 : 0);
            case INTEGER -> ps.setLong(i, Long.parseLong(text));
            case FLOAT -> ps.setDouble(i, Double.parseDouble(text));
            case BYTES -> ps.setBytes(i, HexFormat.of().parseHex(text));
        }
    }
}
