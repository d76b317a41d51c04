package dev.tidemark.tests.sink;

import dev.tidemark.reconcile.CanonicalValues;
import dev.tidemark.testkit.TableComparison;
import dev.tidemark.jdbc.ValueKind;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Compares a target table with the rows it must hold (kept by the test, not read from a source database) by primary
 * key and a SHA-256 checksum of each row's canonical values ({@link CanonicalValues}: equal values give equal text on
 * every engine). The first column is the key ({@code bigint}).
 */
final class KeyChecksumComparison {
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

    private KeyChecksumComparison() {
    }

    /**
     * @param columns  column names in order, key first, with their kinds
     * @param expected key → values in {@code columns} order (Java values as in {@code ChangeEvent} rows)
     */
    static Result compare(Connection target, TableComparison.QuoteStyle quotes, String table, List<String> columns, List<ValueKind> kinds,
                          Map<Long, Object[]> expected) throws SQLException {
        Map<Long, String[]> expectedText = new HashMap<>();
        expected.forEach((k, row) -> expectedText.put(k, canonicalRow(row, kinds)));
        Map<Long, String[]> targetText = new HashMap<>();
        String sql = "SELECT " + String.join(", ", columns.stream().map(quotes::quote).toList()) + " FROM " + quotes.quote(table);
        try (Statement s = target.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                String[] text = new String[columns.size()];
                for (int i = 0; i < text.length; i++) {
                    text[i] = CanonicalValues.read(rs, i + 1, kinds.get(i));
                }
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

    private static String[] canonicalRow(Object[] row, List<ValueKind> kinds) {
        String[] out = new String[row.length];
        for (int i = 0; i < row.length; i++) {
            out[i] = CanonicalValues.canonical(row[i], kinds.get(i));
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
}
