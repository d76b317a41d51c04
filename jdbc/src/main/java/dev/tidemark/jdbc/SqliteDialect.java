package dev.tidemark.jdbc;

import dev.tidemark.event.ColumnType;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;

/**
 * SQLite target. Type affinity decides how SQLite stores a value, so exact types are stored as text: decimals as
 * their plain decimal string (a NUMERIC affinity would round them through a double), timestamps as ISO-8601 text
 * with their full fraction ({@code 2024-05-01T10:15:30.123456Z} for zoned values, no zone for local ones). The
 * declared type keeps the source meaning ({@code DECIMAL_TEXT(12,2)}, {@code TIMESTAMPTZ_TEXT}) while containing
 * "TEXT", which gives the column TEXT affinity.
 *
 * <p>Connections run in WAL mode with {@code synchronous=NORMAL}: a process crash never loses a commit; a power
 * loss can lose the last commits, together with their offsets, so they are re-applied from Kafka.
 */
public final class SqliteDialect implements Dialect {

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
    public String textType() {
        return "TEXT";
    }

    @Override
    public String alterColumnType(String table, String column, String type) {
        return null; // a column's declared type only sets its affinity: wider values already fit
    }

    @Override
    public String bigintType() {
        return "INTEGER";
    }

    @Override
    public String upsert(String table, List<String> columns, List<String> keyColumns, List<String> updateColumns, String positionColumn) {
        return OnConflictUpsert.sql(this::quote, table, columns, keyColumns, updateColumns, positionColumn);
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
}
