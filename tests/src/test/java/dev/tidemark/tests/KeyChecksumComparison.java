package dev.tidemark.tests;

import dev.tidemark.sink.jdbc.TemporalText;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Compares a target table with the rows it must hold (kept by the test) by primary key and a SHA-256 checksum of
 * each row's canonical values, whatever the engine stores: decimals without trailing zeros, instants as UTC text with
 * six fraction digits, booleans as {@code true}/{@code false} (SQLite's 0/1 too), integers as longs, NULL as a marker
 * no text can equal. The first column is the key ({@code bigint}).
 */
final class KeyChecksumComparison {
    /** How a column's values are normalised. */
    enum Kind { INTEGER, DECIMAL, TEXT, TIMESTAMPTZ, BOOLEAN }

    /** The outcome: keys missing from the target, surplus in it, and present with a different checksum. */
    record Result(int expectedRows, int targetRows, List<Long> missing, List<Long> surplus, List<Long> changed,
                  String firstChange) {
        boolean equal() {
            return missing.isEmpty() && surplus.isEmpty() && changed.isEmpty();
        }

        String summary() {
            return String.format("expected %d rows, target %d rows; missing %d %s, surplus %d %s, changed %d %s%s",
                    expectedRows, targetRows, missing.size(), head(missing), surplus.size(), head(surplus),
                    changed.size(), head(changed), firstChange == null ? "" : "; first change: " + firstChange);
        }

        private static String head(List<Long> keys) {
            return keys.size() <= 10 ? keys.toString() : keys.subList(0, 10) + "…";
        }
    }

    private static final String NULL = "\u0000NULL";

    private KeyChecksumComparison() {
    }

    /**
     * @param columns  column names in order, key first, with their kinds
     * @param expected key → values in {@code columns} order (Java values as in {@code ChangeEvent} rows)
     */
    static Result compare(Connection target, SinkTarget t, String table, List<String> columns, List<Kind> kinds,
                          Map<Long, Object[]> expected) throws SQLException {
        Map<Long, String[]> expectedText = new HashMap<>();
        expected.forEach((k, row) -> expectedText.put(k, canonicalRow(row, kinds)));
        Map<Long, String[]> targetText = new HashMap<>();
        String sql = "SELECT " + String.join(", ", columns.stream().map(t::quote).toList()) + " FROM " + t.quote(table);
        try (Statement s = target.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                Object[] row = new Object[columns.size()];
                for (int i = 0; i < row.length; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                String[] text = canonicalRow(row, kinds);
                targetText.put(Long.parseLong(text[0]), text);
            }
        }
        List<Long> missing = new ArrayList<>();
        List<Long> changed = new ArrayList<>();
        List<Long> surplus = new ArrayList<>();
        String firstChange = null;
        for (Long k : new TreeSet<>(expectedText.keySet())) {
            String[] want = expectedText.get(k);
            String[] got = targetText.get(k);
            if (got == null) {
                missing.add(k);
            } else if (!Arrays.equals(checksum(want), checksum(got))) {
                changed.add(k);
                if (firstChange == null) {
                    firstChange = "key " + k + " expected " + Arrays.toString(want) + " but target has " + Arrays.toString(got);
                }
            }
        }
        for (Long k : new TreeSet<>(targetText.keySet())) {
            if (!expectedText.containsKey(k)) {
                surplus.add(k);
            }
        }
        return new Result(expectedText.size(), targetText.size(), missing, surplus, changed, firstChange);
    }

    private static String[] canonicalRow(Object[] row, List<Kind> kinds) {
        String[] out = new String[row.length];
        for (int i = 0; i < row.length; i++) {
            out[i] = canonical(row[i], kinds.get(i));
        }
        return out;
    }

    private static byte[] checksum(String[] values) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String v : values) {
                sha.update(v.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 1);
            }
            return sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String canonical(Object v, Kind kind) {
        if (v == null) {
            return NULL;
        }
        return switch (kind) {
            case INTEGER -> Long.toString(v instanceof Number n ? n.longValue() : Long.parseLong(v.toString().trim()));
            case DECIMAL -> {
                BigDecimal d = v instanceof BigDecimal b ? b : new BigDecimal(v.toString().trim());
                yield d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
            }
            case TEXT -> v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : v.toString();
            case TIMESTAMPTZ -> TemporalText.instant(instant(v));
            case BOOLEAN -> Boolean.toString(v instanceof Boolean b ? b
                    : v instanceof Number n ? n.longValue() != 0 : Boolean.parseBoolean(v.toString().trim()) || v.toString().trim().equals("1"));
        };
    }

    private static Instant instant(Object v) {
        if (v instanceof Instant i) {
            return i;
        }
        if (v instanceof OffsetDateTime o) {
            return o.toInstant();
        }
        if (v instanceof Timestamp t) {
            return t.toInstant();
        }
        if (v instanceof LocalDateTime l) {
            return l.toInstant(ZoneOffset.UTC); // engines without zones store UTC
        }
        String s = v.toString().trim().replace(' ', 'T');
        if (s.endsWith("Z")) {
            return Instant.parse(s);
        }
        try {
            return OffsetDateTime.parse(s).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            return LocalDateTime.parse(s).toInstant(ZoneOffset.UTC);
        }
    }
}
