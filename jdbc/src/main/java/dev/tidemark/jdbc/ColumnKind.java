package dev.tidemark.jdbc;

import dev.tidemark.event.ColumnType;
import java.sql.Types;
import java.util.Locale;
import java.util.Map;

/**
 * How a source column is read and which event type it becomes: integers → {@code int64}, floating point →
 * {@code double}, numeric(p,s) → {@code Decimal} with its scale, timestamp with time zone → {@code ZonedTimestamp}
 * ({@link java.time.Instant}), timestamp → {@code MicroTimestamp} ({@link java.time.LocalDateTime}), date →
 * {@code Date}, boolean → {@code boolean}, binary → {@code bytes}, everything else → {@code string}.
 */
public enum ColumnKind {
    INTEGER, DOUBLE, DECIMAL, BOOLEAN, ZONED, LOCAL, DATE, BYTES, TEXT;

    public boolean temporal() {
        return this == ZONED || this == LOCAL || this == DATE;
    }

    public ColumnType columnType(int precision, int scale) {
        return switch (this) {
            case INTEGER -> ColumnType.of("int64");
            case DOUBLE -> ColumnType.of("double");
            case DECIMAL -> scale < 0 || precision <= 0
                    ? new ColumnType("struct", ColumnType.VARIABLE_SCALE_DECIMAL, Map.of())
                    : new ColumnType("bytes", ColumnType.DECIMAL, Map.of("scale", Integer.toString(scale),
                    "connect.decimal.precision", Integer.toString(precision)));
            case BOOLEAN -> ColumnType.of("boolean");
            case ZONED -> new ColumnType("string", ColumnType.ZONED_TIMESTAMP, Map.of());
            case LOCAL -> new ColumnType("int64", ColumnType.TIMESTAMP_MICROS, Map.of());
            case DATE -> new ColumnType("int32", ColumnType.DATE, Map.of());
            case BYTES -> ColumnType.of("bytes");
            case TEXT -> ColumnType.of("string");
        };
    }

    /** From JDBC metadata of a server database (PostgreSQL, MariaDB, others). */
    public static ColumnKind ofJdbc(int sqlType, String typeName, int precision) {
        String t = typeName == null ? "" : typeName.toLowerCase(Locale.ROOT);
        if (t.equals("timestamptz") || t.contains("with time zone")) {
            return ZONED;
        }
        if (t.equals("tinyint") && precision == 1 || t.equals("bool") || t.equals("boolean") || t.equals("bit") && precision <= 1) {
            return BOOLEAN;
        }
        if (t.equals("bit")) {
            return TEXT; // a bit string of more than one bit (101), which the driver reports as Types.BIT
        }
        return switch (sqlType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> INTEGER;
            case Types.REAL, Types.FLOAT, Types.DOUBLE -> DOUBLE;
            case Types.NUMERIC, Types.DECIMAL -> t.equals("money") ? TEXT : DECIMAL;
            case Types.BOOLEAN, Types.BIT -> BOOLEAN;
            case Types.TIMESTAMP_WITH_TIMEZONE -> ZONED;
            case Types.TIMESTAMP -> LOCAL;
            case Types.DATE -> DATE;
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> BYTES;
            default -> TEXT;
        };
    }

    /** From a SQLite declared type, following SQLite's own affinity rules where they apply. */
    public static ColumnKind ofSqliteDeclared(String declared) {
        String t = declared == null ? "" : declared.toUpperCase(Locale.ROOT);
        if (t.contains("BOOL")) {
            return BOOLEAN;
        }
        if (t.contains("INT")) {
            return INTEGER;
        }
        if (t.contains("TIMESTAMPTZ") || t.contains("ZONE")) {
            return ZONED;
        }
        if (t.contains("DATETIME") || t.contains("TIMESTAMP")) {
            return LOCAL;
        }
        if (t.startsWith("DATE")) {
            return DATE;
        }
        if (t.contains("DEC") || t.contains("NUMERIC")) {
            return DECIMAL;
        }
        if (t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB")) {
            return DOUBLE;
        }
        if (t.contains("BLOB") || t.contains("BINARY")) {
            return BYTES;
        }
        return TEXT;
    }
}
