package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.SourceSql;
import dev.tidemark.jdbc.SourceTable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The bounded, tie-broken, keyset-paginated read of one chunk of a window. Worked example for a timestamp+id cursor
 * ({@code LastModified}, {@code InvoiceId}) with the stored watermark (2014-01-05 00:00, id 414) and the upper bound
 * fixed at the start of the run (2014-01-06 00:00, id 10), key {@code InvoiceId}, chunks of 2, after key 10:
 *
 * <pre>
 * SELECT "InvoiceId", "CustomerId", "InvoiceDate", "Total", "LastModified" FROM "main"."Invoice"
 * WHERE ("LastModified" &gt; ? OR ("LastModified" = ? AND "InvoiceId" &gt; ?))      -- above (2014-01-05, 414)
 *   AND ("LastModified" &lt; ? OR ("LastModified" = ? AND "InvoiceId" &lt;= ?))     -- up to (2014-01-06, 10)
 *   AND "InvoiceId" &gt; ?                                                           -- resume after key 10
 * ORDER BY "InvoiceId" LIMIT 2
 *
 *   LastModified 2014-01-05, id 414  ← the last row of the previous window: excluded
 *   LastModified 2014-01-05, id 416  → included: same timestamp as the watermark, larger id (arrived after that run)
 *   LastModified 2014-01-06, id 10   → included: the upper bound itself
 *   LastModified 2014-01-06, id 417  → excluded: committed after this run fixed its bound; the next window takes it
 * </pre>
 *
 * A plain timestamp cursor drops the id terms ({@code "LastModified" > ? AND "LastModified" <= ?}); an id cursor
 * compares the id alone. Chunks are paged by key, not by cursor, so a stop between chunks resumes after the last
 * committed key of the same window, and the first load of a large table walks its primary-key index. Identifiers
 * are quoted with embedded quotes doubled; every value is bound.
 */
final class WindowQuery {
    private final SourceSql sql;
    private final SourceTable table;
    private final List<String> keys;
    private final Cursor cursor;
    private final Window window;

    WindowQuery(SourceSql sql, SourceTable table, List<String> keys, Cursor cursor, Window window) {
        this.sql = sql;
        this.table = table;
        this.keys = List.copyOf(keys);
        this.cursor = cursor;
        this.window = window;
    }

    /** The chunk query; with {@code resume} the keyset condition is added. */
    String chunkSql(boolean resume, int limit) {
        String cols = table.columns().stream().map(c -> sql.quote(c.name())).collect(Collectors.joining(", "));
        StringBuilder b = new StringBuilder("SELECT ").append(cols).append(" FROM ").append(sql.qualified(table.id()))
                .append(" WHERE ").append(windowPredicate());
        if (resume) {
            b.append(" AND ").append(keysetPredicate());
        }
        b.append(" ORDER BY ").append(keys.stream().map(sql::quote).collect(Collectors.joining(", ")));
        b.append(" LIMIT ").append(limit);
        return b.toString();
    }

    /** {@code SELECT COUNT(*)} of the window, for the progress bar of a first load. */
    String countSql() {
        return "SELECT COUNT(*) FROM " + sql.qualified(table.id()) + " WHERE " + windowPredicate();
    }

    PreparedStatement prepareChunk(Connection c, List<Object> resumeKey, int limit) throws SQLException {
        PreparedStatement ps = c.prepareStatement(chunkSql(resumeKey != null, limit));
        int i = bindWindow(ps, 1);
        if (resumeKey != null) {
            bindKeyset(ps, i, resumeKey);
        }
        return ps;
    }

    PreparedStatement prepareCount(Connection c) throws SQLException {
        PreparedStatement ps = c.prepareStatement(countSql());
        bindWindow(ps, 1);
        return ps;
    }

    String windowPredicate() {
        List<String> terms = new ArrayList<>();
        String p = sql.quote(cursor.primaryColumn());
        boolean tie = cursor instanceof Cursor.TimestampId;
        String id = tie ? sql.quote(cursor.columns().get(1)) : null;
        if (window.lower() != null) {
            if (window.lowerInclusive()) {
                terms.add(p + " >= ?");
            } else if (tie && window.lower().tieBreak() != null) {
                terms.add("(" + p + " > ? OR (" + p + " = ? AND " + id + " > ?))");
            } else {
                terms.add(p + " > ?");
            }
        }
        if (!window.upperInclusive()) {
            terms.add(p + " < ?");
        } else if (tie && window.upper().tieBreak() != null) {
            terms.add("(" + p + " < ? OR (" + p + " = ? AND " + id + " <= ?))");
        } else {
            terms.add(p + " <= ?");
        }
        return String.join(" AND ", terms);
    }

    private int bindWindow(PreparedStatement ps, int i) throws SQLException {
        boolean tie = cursor instanceof Cursor.TimestampId;
        if (window.lower() != null) {
            sql.bindCursorValue(ps, i++, window.lower().primary());
            if (!window.lowerInclusive() && tie && window.lower().tieBreak() != null) {
                sql.bindCursorValue(ps, i++, window.lower().primary());
                ps.setLong(i++, window.lower().tieBreak());
            }
        }
        sql.bindCursorValue(ps, i++, window.upper().primary());
        if (window.upperInclusive() && tie && window.upper().tieBreak() != null) {
            sql.bindCursorValue(ps, i++, window.upper().primary());
            ps.setLong(i++, window.upper().tieBreak());
        }
        return i;
    }

    /** {@code k1 > ?} or, for a composite key, {@code (k1 > ? OR (k1 = ? AND k2 > ?))}, and so on. */
    String keysetPredicate() {
        List<String> alternatives = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            StringBuilder alt = new StringBuilder();
            for (int j = 0; j < i; j++) {
                alt.append(sql.quote(keys.get(j))).append(" = ? AND ");
            }
            alt.append(sql.quote(keys.get(i))).append(" > ?");
            alternatives.add(alternatives.isEmpty() && keys.size() == 1 ? alt.toString() : "(" + alt + ")");
        }
        return alternatives.size() == 1 ? alternatives.get(0) : "(" + String.join(" OR ", alternatives) + ")";
    }

    private void bindKeyset(PreparedStatement ps, int i, List<Object> key) throws SQLException {
        for (int alt = 0; alt < keys.size(); alt++) {
            for (int j = 0; j <= alt; j++) {
                sql.bindValue(ps, i++, key.get(j));
            }
        }
    }

    /** {@code SELECT MAX(cursor)}: the new upper bound is read first and fixes the window. */
    static String maxSql(SourceSql sql, SourceTable table, String column) {
        return "SELECT MAX(" + sql.quote(column) + ") FROM " + sql.qualified(table.id());
    }

    /** The largest tie-break id at the upper bound's timestamp. */
    static String maxIdAtSql(SourceSql sql, SourceTable table, Cursor.TimestampId cursor) {
        return "SELECT MAX(" + sql.quote(cursor.idColumn()) + ") FROM " + sql.qualified(table.id()) + " WHERE "
                + sql.quote(cursor.timestampColumn()) + " = ?";
    }
}
