package dev.tidemark.jdbc;

import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Sizes a MariaDB primary key so that InnoDB indexes it whole, within its 3072-byte key limit: never a prefix, which
 * would make distinct keys collide. Pure: no database.
 *
 * <p>Fixed-size key columns cost their storage size ({@code INT} 4 bytes, {@code BIGINT} 8, {@code DECIMAL(p,s)} by
 * digits, ...). A text key column becomes {@code VARCHAR(n) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin} (4 bytes
 * per character; binary and without PAD SPACE, so keys differing only in case, accents or trailing spaces stay
 * distinct), a bytes key column {@code VARBINARY(n)}. {@code n} is the source column's length where the event schema
 * carries it ({@code __debezium.source.column.length}); a column without one (PostgreSQL {@code text},
 * {@code bytea}, JSON) shares what is left of the 3072 bytes with the other such columns, and a longer value is then
 * refused as a row (MariaDB's strict mode: "Data too long"), never cut.
 *
 * <p>Refused, naming table and column, before anything is written: declared lengths that together exceed the limit,
 * or an unbounded text key left fewer than {@value #MIN_UNBOUNDED_CHARS} characters.
 *
 * <p>Example: key {@code (tenant int32, code string)} without a length: {@code INT} (4 bytes) and
 * {@code VARCHAR(767)} (3068 bytes).
 */
public final class MariaDbKeyLayout {
    static final int MAX_KEY_BYTES = 3072;
    static final int BYTES_PER_CHAR = 4; // utf8mb4
    static final int MIN_UNBOUNDED_CHARS = 64;
    public static final String TEXT_KEY_CHARSET = "CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin";
    private static final int MAX_VARCHAR_CHARS = 16383; // 65535 bytes in utf8mb4
    private static final int[] DECIMAL_DIGIT_BYTES = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};

    private MariaDbKeyLayout() {
    }

    private enum Kind { FIXED, TEXT, BYTES }

    private record Part(Column column, Kind kind, String fixedType, int length) {
    }

    /**
     * The key columns' types, by column name in key order.
     *
     * @param plainType the dialect's type of a column outside a key ({@code LONGTEXT …} / {@code JSON} mark text,
     *                  {@code LONGBLOB} bytes; anything else is a fixed-size type)
     * @throws SinkException a {@link Failure.Fault} naming table and column when the key cannot be indexed whole
     */
    public static Map<String, String> layout(String table, RowSchema schema, Function<ColumnType, String> plainType) {
        List<Part> parts = new ArrayList<>();
        for (String name : schema.keyColumns()) {
            Column c = schema.columns().stream().filter(x -> x.name().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("table " + table + ": key column " + name + " is not in the schema"));
            String plain = plainType.apply(c.type());
            Kind kind = plain.startsWith("LONGTEXT") || plain.equals("JSON") ? Kind.TEXT : plain.equals("LONGBLOB") ? Kind.BYTES : Kind.FIXED;
            parts.add(new Part(c, kind, plain, kind == Kind.FIXED ? -1 : sourceLength(c.type())));
        }
        int used = 0;
        int unbounded = 0;
        for (Part p : parts) {
            if (p.kind() == Kind.FIXED) {
                used += fixedBytes(p.fixedType());
            }
        }
        for (Part p : parts) {
            if (p.kind() == Kind.FIXED) {
                continue;
            }
            if (p.length() < 0) {
                unbounded++;
                continue;
            }
            int bytes = p.kind() == Kind.TEXT ? p.length() * BYTES_PER_CHAR : p.length();
            if (used + bytes > MAX_KEY_BYTES || p.kind() == Kind.TEXT && p.length() > MAX_VARCHAR_CHARS) {
                throw refuse(table, p.column().name(), typeOf(p, p.length()) + " (" + bytes + " bytes" + (p.kind() == Kind.TEXT ? " in utf8mb4" : "")
                        + ") does not fit MariaDB's " + MAX_KEY_BYTES + "-byte key limit next to the other key columns (" + used + " bytes)");
            }
            used += bytes;
        }
        int share = unbounded == 0 ? 0 : (MAX_KEY_BYTES - used) / unbounded;
        Map<String, String> out = new LinkedHashMap<>();
        for (Part p : parts) {
            String type;
            if (p.kind() == Kind.FIXED) {
                type = p.fixedType();
            } else if (p.length() >= 0) {
                type = typeOf(p, p.length());
            } else {
                int n = p.kind() == Kind.TEXT ? Math.min(share / BYTES_PER_CHAR, MAX_VARCHAR_CHARS) : share;
                if (p.kind() == Kind.TEXT && n < MIN_UNBOUNDED_CHARS || n < 1) {
                    throw refuse(table, p.column().name(), "an unbounded text key would get only " + Math.max(n, 0) + " characters of MariaDB's "
                            + MAX_KEY_BYTES + "-byte key limit (the other key columns take " + used + " bytes)");
                }
                type = typeOf(p, n);
            }
            out.put(p.column().name(), type);
        }
        return out;
    }

    private static String typeOf(Part p, int n) {
        return p.kind() == Kind.TEXT ? "VARCHAR(" + n + ") " + TEXT_KEY_CHARSET : "VARBINARY(" + n + ")";
    }

    private static SinkException refuse(String table, String column, String why) {
        return new SinkException("table " + table + " column " + column + ": primary key column cannot be created: " + why
                + "; the sink never indexes a key prefix (distinct keys would merge): shorten the source key column or use a "
                + "target that can index it; nothing was written", null, new Failure.Fault(Failure.Cause.SCHEMA));
    }

    /** The source column's declared length, or -1 when the schema has none or it is unbounded. */
    static int sourceLength(ColumnType type) {
        String len = type.parameters().get("__debezium.source.column.length");
        if (len == null) {
            return -1;
        }
        try {
            long n = Long.parseLong(len.trim());
            return n > 0 && n < Integer.MAX_VALUE ? (int) n : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Index bytes of a fixed-size MariaDB type as the dialect names it. */
    static int fixedBytes(String sqlType) {
        String t = sqlType.toUpperCase(java.util.Locale.ROOT);
        if (t.startsWith("DECIMAL(")) {
            String[] ps = t.substring("DECIMAL(".length(), t.indexOf(')')).split(",");
            int p = Integer.parseInt(ps[0].trim());
            int s = ps.length > 1 ? Integer.parseInt(ps[1].trim()) : 0;
            return digitBytes(p - s) + digitBytes(s);
        }
        if (t.startsWith("DATETIME")) {
            return 8;
        }
        if (t.startsWith("TIME")) {
            return 6;
        }
        return switch (t) {
            case "BOOLEAN", "TINYINT" -> 1;
            case "SMALLINT" -> 2;
            case "DATE" -> 3;
            case "INT", "FLOAT" -> 4;
            case "UUID" -> 16;
            default -> 8; // BIGINT, DOUBLE, and a safe upper guess for anything else
        };
    }

    private static int digitBytes(int digits) {
        return digits / 9 * 4 + DECIMAL_DIGIT_BYTES[digits % 9];
    }
}
