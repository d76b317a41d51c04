package dev.tidemark.tests.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An independent check, sharing no code with reconcile: every row of a table read on both sides as text (key →
 * every value), then compared key by key and value by value.
 */
final class RowImages {
    /** Differences of one table; {@code examples} names a few keys. */
    record Diff(String table, int sourceRows, int targetRows, int missing, int surplus, int changed, List<String> examples) {
        boolean equal() {
            return missing == 0 && surplus == 0 && changed == 0;
        }

        @Override
        public String toString() {
            return table + ": source " + sourceRows + " rows, target " + targetRows + " rows, missing " + missing
                    + ", surplus " + surplus + ", changed " + changed + (examples.isEmpty() ? "" : " e.g. " + examples);
        }
    }

    private RowImages() {
    }

    /** The two chaos tables, source (PostgreSQL) against target (SQLite). */
    static List<Diff> compare(Connection source, Connection target) throws SQLException {
        return List.of(
                compare("items", read(source, "SELECT id::text, v::text, note FROM items"),
                        read(target, "SELECT CAST(\"id\" AS TEXT), CAST(\"v\" AS TEXT), \"note\" FROM \"items\"")),
                compare("lines", read(source, "SELECT order_id::text || '|' || line, qty::text, price::text, memo FROM lines"),
                        read(target, "SELECT CAST(\"order_id\" AS TEXT) || '|' || \"line\", CAST(\"qty\" AS TEXT), "
                                + "CAST(\"price\" AS TEXT), \"memo\" FROM \"lines\"")));
    }

    private static Diff compare(String table, Map<String, List<String>> source, Map<String, List<String>> target) {
        int missing = 0;
        int changed = 0;
        List<String> examples = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : source.entrySet()) {
            List<String> t = target.get(e.getKey());
            if (t == null) {
                missing++;
                note(examples, "missing " + e.getKey());
            } else if (!Objects.equals(t, e.getValue())) {
                changed++;
                note(examples, "changed " + e.getKey() + " " + abbreviate(e.getValue()) + " ≠ " + abbreviate(t));
            }
        }
        int surplus = 0;
        for (String key : target.keySet()) {
            if (!source.containsKey(key)) {
                surplus++;
                note(examples, "surplus " + key);
            }
        }
        return new Diff(table, source.size(), target.size(), missing, surplus, changed, examples);
    }

    private static void note(List<String> examples, String s) {
        if (examples.size() < 5) {
            examples.add(s);
        }
    }

    private static String abbreviate(List<String> row) {
        String s = row.toString();
        return s.length() > 80 ? s.substring(0, 80) + "…" : s;
    }

    /** First column: the key as text; the others: the values as text (null stays null). Empty if the table is absent. */
    private static Map<String, List<String>> read(Connection c, String sql) throws SQLException {
        Map<String, List<String>> rows = new HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> values = new ArrayList<>(n - 1);
                for (int i = 2; i <= n; i++) {
                    values.add(rs.getString(i));
                }
                rows.put(rs.getString(1), values);
            }
        } catch (SQLException e) {
            if (String.valueOf(e.getMessage()).contains("no such table")) {
                return rows;
            }
            throw e;
        }
        return rows;
    }
}
