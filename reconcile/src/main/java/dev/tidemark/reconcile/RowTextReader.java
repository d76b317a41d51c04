package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * SQLite's rows as one concatenated text per row (one driver call instead of one per column), or per chunk of rows
 * ({@code group_concat}) when unordered with a single key column: each value followed by U+001F, NULL as U+001E
 * alone, blobs as lower-case hex. A text value that holds a separator character sends the scan back to the start,
 * column by column ({@link ResultSetRowReader}). Canonical-text reads go through result sets too.
 */
final class RowTextReader implements RowReader {
    private final SideQuery query;
    private final ResultSetRowReader perColumn;

    RowTextReader(SideQuery query) {
        this.query = query;
        this.perColumn = new ResultSetRowReader(query);
    }

    @Override
    public long read(String sql, TableSide.RowSink sink) throws SQLException {
        return perColumn.read(sql, sink);
    }

    @Override
    public long hash(String where, String order, TableSide.HashSink sink) throws SQLException {
        try {
            return concatenated(where, order, sink);
        } catch (SeparatorInTextException e) {
            sink.restart();
            return perColumn.hash(where, order, sink);
        }
    }

    /** A SQLite text value held a separator character: the scan starts over column by column. */
    private static final class SeparatorInTextException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SeparatorInTextException() {
            super(null, null, false, false);
        }
    }

    private static final byte VALUE_END = 0x1F;
    private static final byte NULL_END = 0x1E;

    /**
     * One text per row: each value followed by U+001F, or U+001E alone for NULL (blobs as lower-case hex).
     * Separators inside a value always show: they add a value or end a NULL that is not empty.
     */
    private long concatenated(String where, String order, TableSide.HashSink sink) throws SQLException {
        RowHash h = new RowHash();
        long n = 0;
        int key = query.keyIndex();
        List<ValueKind> kinds = query.kinds();
        // separators written into the SQL as literal characters: no function call per value
        StringBuilder concat = new StringBuilder();
        for (int i = 0; i < kinds.size(); i++) {
            String c = query.columns().get(i);
            concat.append(i == 0 ? "" : " || ");
            if (kinds.get(i) == ValueKind.BYTES) {
                concat.append("CASE WHEN ").append(c).append(" IS NULL THEN '\u001E' ELSE lower(hex(").append(c).append(")) || '\u001F' END");
            } else {
                concat.append("ifnull(").append(c).append(" || '\u001F', '\u001E')");
            }
        }
        ValueKind[] feedKinds = kinds.toArray(ValueKind[]::new);
        for (int i = 0; i < feedKinds.length; i++) {
            if (feedKinds[i] == ValueKind.BYTES) {
                feedKinds[i] = ValueKind.TEXT; // already canonical hex
            }
        }
        AsciiView view = new AsciiView();
        if (order.isEmpty() && query.keyCount() == 1) {
            return chunks(where, concat.toString(), feedKinds, key, sink, h, view);
        }
        try (Statement s = query.connection().createStatement();
             ResultSet rs = s.executeQuery("SELECT " + concat + " FROM " + query.table() + where + order)) {
            while (rs.next()) {
                // UTF-8 bytes: the separators never occur inside a multi-byte sequence
                byte[] row = rs.getBytes(1);
                if (hashConcatenated(row, 1, feedKinds, key, sink, h, view) != row.length) {
                    throw new SeparatorInTextException();
                }
                n++;
            }
        }
        return n;
    }

    private static final int FIRST_CHUNK_ROWS = 1_000;
    private static final int MAX_CHUNK_ROWS = 10_000;
    private static final long CHUNK_BYTES = 200_000;

    /**
     * Unordered, single key column: the rows of a chunk of keys (about {@value #CHUNK_BYTES} bytes of text,
     * at most {@value #MAX_CHUNK_ROWS} rows) come back as one text ({@code group_concat}), paged by key — two driver
     * calls per chunk instead of two per row.
     * <pre>
     * SELECT group_concat(e, ''), count(*), max("id") FROM (SELECT "id", &lt;row text&gt; AS e FROM "items"
     *   WHERE &lt;range&gt; AND "id" &gt; ? ORDER BY "id" LIMIT ?)
     * </pre>
     */
    private long chunks(String range, String concat, ValueKind[] feedKinds, int key, TableSide.HashSink sink, RowHash h, AsciiView view)
            throws SQLException {
        String firstKey = query.firstKey();
        String sql = "SELECT group_concat(e, ''), count(*), max(k) FROM (SELECT " + firstKey + " AS k, " + concat + " AS e FROM " + query.table()
                + (range.isEmpty() ? " WHERE " : range + " AND ") + firstKey + " > ? ORDER BY " + firstKey + " LIMIT ?)";
        long n = 0;
        long after = Long.MIN_VALUE;
        try (PreparedStatement firstChunk = query.connection().prepareStatement(sql.replace(firstKey + " > ?", firstKey + " >= ?"));
             PreparedStatement nextChunk = query.connection().prepareStatement(sql)) {
            PreparedStatement ps = firstChunk;
            int limit = FIRST_CHUNK_ROWS;
            while (true) {
                ps.setLong(1, after);
                ps.setInt(2, limit);
                long rows;
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    rows = rs.getLong(2);
                    if (rows == 0) {
                        return n;
                    }
                    byte[] text = rs.getBytes(1);
                    if (hashConcatenated(text, rows, feedKinds, key, sink, h, view) != text.length) {
                        throw new SeparatorInTextException();
                    }
                    after = rs.getLong(3);
                    if (rows < limit || after == Long.MAX_VALUE) {
                        return n + rows;
                    }
                    // the next chunk's text of about CHUNK_BYTES: small enough not to be a "humongous" object for G1
                    limit = (int) Math.max(16, Math.min(MAX_CHUNK_ROWS, CHUNK_BYTES * rows / Math.max(1, text.length)));
                }
                n += rows;
                ps = nextChunk;
            }
        }
    }

    /**
     * Hashes {@code rows} rows of concatenated values (each value followed by U+001F, NULL as U+001E alone) and
     * returns where the parse ended; a separator inside a value shows as a parse that does not end at the text's end
     * or as a NULL marker after text.
     */
    private static int hashConcatenated(byte[] text, long rows, ValueKind[] feedKinds, int key, TableSide.HashSink sink, RowHash h,
                                        AsciiView view) {
        int at = 0;
        int len = text.length;
        for (long r = 0; r < rows; r++) {
            h.begin();
            long k = 0;
            for (int f = 0; f < feedKinds.length; f++) {
                int end = at;
                while (end < len && text[end] != VALUE_END && text[end] != NULL_END) {
                    end++;
                }
                if (end == len) {
                    throw new SeparatorInTextException();
                }
                if (text[end] == NULL_END) {
                    if (end != at) {
                        throw new SeparatorInTextException();
                    }
                    h.nullValue();
                } else {
                    FieldBytes.feed(text, at, end, feedKinds[f], h, view, false);
                    if (f == key) {
                        try {
                            k = FieldBytes.parseLong(text, at, end, view);
                        } catch (NumberFormatException e) {
                            throw new SeparatorInTextException(); // out of step: a value held a separator
                        }
                    }
                }
                at = end + 1;
            }
            sink.accept(k, h.end());
        }
        return at;
    }
}
