package dev.tidemark.testkit;

import dev.tidemark.jdbc.ValueKind;
import dev.tidemark.reconcile.CanonicalValues;
import dev.tidemark.reconcile.ComparisonResult;

import dev.tidemark.event.TableId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Test oracle: compares a source table with its target copy by primary key and a checksum of each row's canonical
 * values ({@link CanonicalValues}), over the source's columns. Reads both tables whole into memory, with none of the
 * reconciler's segmenting, bisecting or merging, so tests can check the pipeline (and the reconciler) against an
 * independent, obviously-correct comparison. Large tables are the reconcile command's job
 * ({@code dev.tidemark.reconcile.Reconciler}).
 *
 * <p>Stateless and thread-safe; the caller owns both connections.
 */
public final class TableComparison {
    private TableComparison() {
    }

    /**
     * Missing, surplus and changed keys of {@code targetTable} (identifiers quoted with {@code targetQuotes}) against
     * {@code sourceTable} (double-quoted); keys are the key columns' canonical values joined with {@code ","}.
     */
    public static ComparisonResult compare(Connection source, TableId sourceTable, List<String> keyColumns,
                                           Connection target, String targetTable, QuoteStyle targetQuotes) throws SQLException {
        String srcSql = "SELECT * FROM " + (sourceTable.schema().isEmpty() ? "" : QuoteStyle.DOUBLE.quote(sourceTable.schema()) + ".")
                + QuoteStyle.DOUBLE.quote(sourceTable.table());
        List<String> columns = new ArrayList<>();
        List<ValueKind> kinds = new ArrayList<>();
        Map<String, String> sourceRows = new TreeMap<>();
        try (PreparedStatement ps = source.prepareStatement(srcSql); ResultSet rs = ps.executeQuery()) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                columns.add(md.getColumnName(i));
                kinds.add(ValueKind.ofSourceType(md.getColumnTypeName(i)));
            }
            readRows(rs, columns, kinds, keyColumns, sourceRows, true);
        }
        String tgtSql = "SELECT " + String.join(", ", columns.stream().map(targetQuotes::quote).toList()) + " FROM " + targetQuotes.quote(targetTable);
        Map<String, String> targetRows = new TreeMap<>();
        try (PreparedStatement ps = target.prepareStatement(tgtSql); ResultSet rs = ps.executeQuery()) {
            readRows(rs, columns, kinds, keyColumns, targetRows, false);
        }
        List<String> missing = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        List<String> surplus = new ArrayList<>();
        for (Map.Entry<String, String> e : sourceRows.entrySet()) {
            String t = targetRows.get(e.getKey());
            if (t == null) {
                missing.add(e.getKey());
            } else if (!t.equals(e.getValue())) {
                changed.add(e.getKey());
            }
        }
        for (String k : targetRows.keySet()) {
            if (!sourceRows.containsKey(k)) {
                surplus.add(k);
            }
        }
        return new ComparisonResult(sourceTable.toString(), sourceRows.size(), targetRows.size(), missing, surplus, changed);
    }

    private static void readRows(ResultSet rs, List<String> columns, List<ValueKind> kinds, List<String> keyColumns,
                                 Map<String, String> out, boolean isSource) throws SQLException {
        MessageDigest sha = sha256();
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            index.put(columns.get(i), i);
        }
        while (rs.next()) {
            String[] values = new String[columns.size()];
            for (int i = 0; i < columns.size(); i++) {
                values[i] = CanonicalValues.read(rs, i + 1, kinds.get(i));
            }
            StringBuilder key = new StringBuilder();
            for (String k : keyColumns) {
                key.append(key.length() == 0 ? "" : ",").append(values[index.get(k)]);
            }
            sha.reset();
            for (String v : values) {
                sha.update(v.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 1);
            }
            out.put(key.toString(), HexFormat.of().formatHex(sha.digest(), 0, 16));
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** How the target quotes identifiers: {@code "name"} (PostgreSQL, SQLite) or {@code `name`} (MariaDB). */
    public enum QuoteStyle {
        DOUBLE('"'), BACKTICK('`');

        private final char q;

        QuoteStyle(char q) {
            this.q = q;
        }

        /** {@code identifier} quoted, with the quote character doubled inside it. */
        public String quote(String identifier) {
            return q + identifier.replace(String.valueOf(q), String.valueOf(q) + q) + q;
        }
    }
}
