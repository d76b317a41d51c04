package dev.tidemark.jdbc;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.HexFormat;
import java.util.Locale;

/**
 * How a column's values are normalised before hashing, chosen from the source column's type so that a PostgreSQL
 * value and its copy in another engine (SQLite text, MariaDB DATETIME, …) produce the same canonical text.
 */
public enum ValueKind {
    INTEGER, FLOAT, DECIMAL, BOOLEAN, TIMESTAMPTZ, TIMESTAMP, DATE, TIME, BYTES, TEXT;

    /**
     * From a column's kind as the watermark metadata reads it (JDBC types on servers, declared types on SQLite),
     * refined by the declared type where that kind is coarser ({@code time} columns, floats).
     */
    public static ValueKind of(ColumnKind kind, String declaredType) {
        return switch (kind) {
            case INTEGER -> INTEGER;
            case DOUBLE -> FLOAT;
            case DECIMAL -> DECIMAL;
            case BOOLEAN -> BOOLEAN;
            case ZONED -> TIMESTAMPTZ;
            case LOCAL -> TIMESTAMP;
            case DATE -> DATE;
            case BYTES -> BYTES;
            case TEXT -> {
                String t = declaredType == null ? "" : declaredType.toLowerCase(Locale.ROOT);
                yield t.equals("time") || t.startsWith("time(") || t.startsWith("time without") || t.equals("time_text") ? TIME : TEXT;
            }
        };
    }

    public static ValueKind ofSourceType(String typeName) {
        String t = typeName.toLowerCase(Locale.ROOT);
        return switch (t) {
            case "int2", "int4", "int8", "smallint", "integer", "bigint", "serial", "bigserial", "smallserial", "oid" -> INTEGER;
            case "float4", "float8", "real", "double precision", "double" -> FLOAT;
            case "numeric", "decimal", "money" -> DECIMAL;
            case "bool", "boolean" -> BOOLEAN;
            case "timestamptz", "timestamp with time zone" -> TIMESTAMPTZ;
            case "timestamp", "timestamp without time zone", "datetime" -> TIMESTAMP;
            case "date" -> DATE;
            case "time", "time without time zone" -> TIME;
            case "bytea", "blob", "binary", "varbinary" -> BYTES;
            default -> TEXT;
        };
    }

    /** A value given as canonical text of this kind, as the change-event value type of this kind. */
    public Object eventValue(String text) {
        return switch (this) {
            case INTEGER -> Long.parseLong(text);
            case DECIMAL -> new BigDecimal(text);
            case FLOAT -> Double.parseDouble(text);
            case BOOLEAN -> Boolean.parseBoolean(text);
            case TIMESTAMPTZ -> Instant.parse(text);
            case TIMESTAMP -> LocalDateTime.parse(text);
            case DATE -> LocalDate.parse(text);
            case TIME -> LocalTime.parse(text);
            case BYTES -> HexFormat.of().parseHex(text);
            case TEXT -> text;
        };
    }
}
