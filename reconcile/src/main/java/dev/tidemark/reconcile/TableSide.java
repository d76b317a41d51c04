package dev.tidemark.reconcile;

import dev.tidemark.jdbc.Engine;
import dev.tidemark.jdbc.ValueKind;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

/**
 * One side of a comparison: a connection, the table on it and the compared columns as that side names them. Reads
 * rows as canonical text ({@link CanonicalValues#ofText}) in key ranges, whole or ordered by key, and looks rows up
 * by key. PostgreSQL is read with {@code COPY (SELECT …) TO STDOUT} (the cheapest way to get every row's content
 * out of it), other engines through JDBC result sets, streamed.
 *
 * <p>Not thread-safe: one thread at a time (the reconciler gives each side its own thread).
 */
final class TableSide implements AutoCloseable {
    private static final int FETCH = 5_000;

    /** Receives each row's first key and hash. */
    interface HashSink {
        void accept(long firstKey, long hash);

        /** Forget every row received so far: the scan starts over. */
        void restart();
    }

    /** Receives rows; {@code values} is reused between calls. */
    @FunctionalInterface
    interface RowSink {
        void accept(String[] values);
    }

    final String role;
    final Engine engine;
    final Connection connection;
    private final boolean owned;
    private final boolean autoCommitBefore;
    private final String table;
    private final String tableName;
    private final String select;
    private final List<String> selected;
    private final List<ValueKind> kinds;
    private final List<String> keyTerms = new ArrayList<>();
    private final List<ValueKind> keyKinds;
    private final String firstKey;
    private final String live;
    private final String orderBy;
    private final TableShape shape;

    private TableSide(String role, Engine engine, Connection connection, boolean owned, TableShape shape) throws SQLException {
        this.role = role;
        this.shape = shape;
        this.engine = engine;
        this.connection = connection;
        this.owned = owned;
        this.autoCommitBefore = connection.getAutoCommit();
        boolean source = role.equals("source");
        this.table = source ? qualified(engine, shape.source().id().schema(), shape.source().id().table()) : engine.quote(shape.targetTable());
        this.tableName = source ? shape.source().id().table() : shape.targetTable();
        List<String> cols = new ArrayList<>();
        this.kinds = new ArrayList<>();
        for (TableShape.Compared c : shape.columns()) {
            cols.add(engine.quote(source ? c.name() : c.targetName()));
            kinds.add(c.kind());
        }
        this.select = String.join(", ", cols);
        this.selected = List.copyOf(cols);
        this.keyKinds = shape.keyKinds();
        List<String> order = new ArrayList<>();
        for (int i : shape.keyIndex()) {
            TableShape.Compared c = shape.columns().get(i);
            String q = cols.get(i);
            keyTerms.add(q);
            order.add(engine.orderTerm(q, c.kind()));
        }
        this.firstKey = keyTerms.get(0);
        this.orderBy = String.join(", ", order);
        this.live = !source && shape.targetDeleted() != null ? engine.quote(shape.targetDeleted()) + " IS NOT TRUE" : null;
        if (engine == Engine.POSTGRESQL || engine == Engine.MARIADB || engine == Engine.OTHER) {
            // cursors (PostgreSQL) and streaming (MariaDB) need a transaction; PostgreSQL's SET LOCAL too
            connection.setAutoCommit(false);
        }
        if (owned && engine == Engine.MARIADB) {
            try (Statement s = connection.createStatement()) {
                s.execute("SET SESSION time_zone = '+00:00'");
            }
        }
    }

    static TableSide open(String role, Engine engine, Connection connection, boolean owned, TableShape shape) throws SQLException {
        return new TableSide(role, engine, connection, owned, shape);
    }

    private static String qualified(Engine engine, String schema, String table) {
        return schema.isEmpty() ? engine.quote(table) : engine.quote(schema) + "." + engine.quote(table);
    }

    int columnCount() {
        return kinds.size();
    }

    boolean isSource() {
        return role.equals("source");
    }

    /** The table as SQL (quoted, qualified on the source). */
    String tableSql() {
        return table;
    }

    /** The compared columns as SQL, in comparison order. */
    List<String> columnsSql() {
        return selected;
    }

    /** {@code WHERE} over the first key's range and the live-row filter (or "" when there is nothing to filter). */
    String whereSql(Long lo, Long hi) {
        return where(lo, hi);
    }

    /** Commits the read transaction where there is one. */
    void finishRead() throws SQLException {
        endRead();
    }

    /** Smallest and largest value of the first key column among live rows, or null when there are none. */
    long[] bounds() throws SQLException {
        String sql = "SELECT MIN(" + firstKey + "), MAX(" + firstKey + ") FROM " + table + where(null, null);
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            long min = rs.getLong(1);
            boolean empty = rs.wasNull();
            long max = rs.getLong(2);
            return empty ? null : new long[] {min, max};
        } finally {
            endRead();
        }
    }

    /** The statistics' row estimate, or -1 where there is none (SQLite, never-analysed tables). */
    long estimatedRows() throws SQLException {
        String sql = switch (engine) {
            case POSTGRESQL -> "SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass(?)";
            case MARIADB -> "SELECT table_rows FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?";
            default -> null;
        };
        if (sql == null) {
            return -1;
        }
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, engine == Engine.POSTGRESQL ? table : tableName);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        } catch (SQLException e) {
            return -1; // only an estimate
        } finally {
            endRead();
        }
    }

    /** The WAL position on PostgreSQL ({@code 0/16B3748}), null elsewhere or when the server cannot say. */
    String position() {
        String sql = engine.positionQuery();
        if (sql == null) {
            return null;
        }
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            return null; // e.g. a standby in recovery
        } finally {
            try {
                endRead();
            } catch (SQLException ignored) {
                // the read already failed or succeeded; nothing to keep
            }
        }
    }

    /**
     * Streams the live rows whose first key lies in {@code [lo, hi]} (both null: the whole table), in key order when
     * {@code ordered}, as canonical text.
     *
     * @return rows read
     */
    long read(Long lo, Long hi, boolean ordered, RowSink sink) throws SQLException {
        String sql = "SELECT " + select + " FROM " + table + where(lo, hi) + (ordered ? " ORDER BY " + orderBy : "");
        try {
            return engine == Engine.POSTGRESQL ? copy(sql, sink) : jdbc(sql, sink);
        } finally {
            endRead();
        }
    }

    /**
     * Streams the live rows whose first key (an integer) lies in {@code [lo, hi]} (both null: the whole table), in no
     * particular order, handing each row's first key and hash to {@code sink}: the hot path of segment checksums.
     * The hash equals {@link RowHash#of} over the row's {@link CanonicalValues#ofText} values whichever way the row
     * was read. PostgreSQL is read with {@code COPY}, SQLite as one concatenated text per row (one driver call
     * instead of one per column; rows whose text holds the separator characters send the scan back to the
     * per-column way), other engines column by column.
     *
     * @return rows read
     */
    long hashRows(Long lo, Long hi, HashSink sink) throws SQLException {
        return hashRows(lo, hi, false, sink);
    }

    /** As {@link #hashRows(Long, Long, HashSink)}, in key order when {@code ordered}. */
    long hashRows(Long lo, Long hi, boolean ordered, HashSink sink) throws SQLException {
        String order = ordered ? " ORDER BY " + orderBy : "";
        int key = shape.keyIndex()[0];
        try {
            if (engine == Engine.POSTGRESQL) {
                String sql = "SELECT " + select + " FROM " + table + where(lo, hi) + order;
                return copyHashing(sql, key, sink);
            }
            if (engine == Engine.SQLITE) {
                try {
                    return sqliteHashing(lo, hi, order, key, sink, false);
                } catch (SeparatorInTextException e) {
                    sink.restart();
                    return sqliteHashing(lo, hi, order, key, sink, true);
                }
            }
            RowHash h = new RowHash();
            long[] n = {0};
            jdbc("SELECT " + select + " FROM " + table + where(lo, hi) + order, values -> {
                h.begin();
                for (String v : values) {
                    h.value(v);
                }
                sink.accept(Long.parseLong(values[key]), h.end());
                n[0]++;
            });
            return n[0];
        } finally {
            endRead();
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
     * SQLite, one text per row: each value followed by U+001F, or U+001E alone for NULL (blobs as lower-case hex).
     * Separators inside a value always show: they add a value or end a NULL that is not empty.
     */
    private long sqliteHashing(Long lo, Long hi, String order, int key, HashSink sink, boolean perColumn) throws SQLException {
        RowHash h = new RowHash();
        long n = 0;
        if (perColumn) {
            long[] count = {0};
            jdbc("SELECT " + select + " FROM " + table + where(lo, hi) + order, values -> {
                h.begin();
                for (String v : values) {
                    h.value(v);
                }
                sink.accept(Long.parseLong(values[key]), h.end());
                count[0]++;
            });
            return count[0];
        }
        // separators written into the SQL as literal characters: no function call per value
        StringBuilder concat = new StringBuilder();
        for (int i = 0; i < kinds.size(); i++) {
            String c = selected.get(i);
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
        if (order.isEmpty() && keyKinds.size() == 1) {
            return sqliteChunks(lo, hi, concat.toString(), feedKinds, key, sink, h, view);
        }
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT " + concat + " FROM " + table + where(lo, hi) + order)) {
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
     * SQLite, unordered, single key column: the rows of a chunk of keys (about {@value #CHUNK_BYTES} bytes of text,
     * at most {@value #MAX_CHUNK_ROWS} rows) come back as one text ({@code group_concat}), paged by key — two driver
     * calls per chunk instead of two per row.
     * <pre>
     * SELECT group_concat(e, ''), count(*), max("id") FROM (SELECT "id", &lt;row text&gt; AS e FROM "items"
     *   WHERE &lt;range&gt; AND "id" &gt; ? ORDER BY "id" LIMIT ?)
     * </pre>
     */
    private long sqliteChunks(Long lo, Long hi, String concat, ValueKind[] feedKinds, int key, HashSink sink, RowHash h, AsciiView view)
            throws SQLException {
        String range = where(lo, hi);
        String sql = "SELECT group_concat(e, ''), count(*), max(k) FROM (SELECT " + firstKey + " AS k, " + concat + " AS e FROM " + table
                + (range.isEmpty() ? " WHERE " : range + " AND ") + firstKey + " > ? ORDER BY " + firstKey + " LIMIT ?)";
        long n = 0;
        long after = Long.MIN_VALUE;
        try (PreparedStatement firstChunk = connection.prepareStatement(sql.replace(firstKey + " > ?", firstKey + " >= ?"));
             PreparedStatement nextChunk = connection.prepareStatement(sql)) {
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
    private static int hashConcatenated(byte[] text, long rows, ValueKind[] feedKinds, int key, HashSink sink, RowHash h, AsciiView view) {
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
                    feedBytes(text, at, end, feedKinds[f], h, view, false);
                    if (f == key) {
                        try {
                            k = parseLong(text, at, end, view);
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

    /**
     * Feeds one UTF-8 value: in place when it is ASCII (and, for COPY, free of escapes), else decoded first.
     */
    static void feedBytes(byte[] d, int from, int to, ValueKind kind, RowHash h, AsciiView view, boolean copyEscapes) {
        if (!ByteFeed.feed(d, from, to, kind, h, copyEscapes)) {
            String text = copyEscapes ? CopyParser.unescape(d, from, to) : new String(d, from, to - from, StandardCharsets.UTF_8);
            CanonicalFeed.feed(text, 0, text.length(), kind, h);
            return;
        }
        h.endValue();
    }

    /** A key's digits straight from the bytes; anything else through {@link #parseLong(CharSequence, int, int)}. */
    static long parseLong(byte[] d, int from, int to, AsciiView view) {
        if (to - from <= 18 && to > from) {
            boolean negative = d[from] == '-';
            long v = 0;
            int i = negative ? from + 1 : from;
            boolean ok = i < to;
            for (; i < to; i++) {
                byte c = d[i];
                if (c < '0' || c > '9') {
                    ok = false;
                    break;
                }
                v = v * 10 + (c - '0');
            }
            if (ok) {
                return negative ? -v : v;
            }
        }
        for (int i = from; i < to; i++) {
            if (d[i] < 0) {
                String text = new String(d, from, to - from, StandardCharsets.UTF_8);
                return parseLong(text, 0, text.length());
            }
        }
        return parseLong(view.set(d, from, to), 0, to - from);
    }

    private static long parseLong(CharSequence s, int from, int to) {
        if (to - from > 18) {
            return Long.parseLong(s.subSequence(from, to).toString().trim());
        }
        boolean negative = from < to && s.charAt(from) == '-';
        long v = 0;
        for (int i = negative ? from + 1 : from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return Long.parseLong(CanonicalValues.ofText(s.subSequence(from, to).toString(), ValueKind.INTEGER));
            }
            v = v * 10 + (c - '0');
        }
        return negative ? -v : v;
    }

    /** PostgreSQL: COPY text rows hashed field by field; ASCII fields without escapes are read in place. */
    private long copyHashing(String sql, int key, HashSink sink) throws SQLException {
        CopyOut out = startCopy(sql);
        CopyParser parser = new CopyParser(kinds);
        RowHash h = new RowHash();
        long n = 0;
        try {
            byte[] data;
            while ((data = out.readFromCopy()) != null) {
                n += parser.hash(data, key, h, sink);
            }
        } finally {
            if (out.isActive()) {
                out.cancelCopy();
            }
        }
        return n;
    }

    private String where(Long lo, Long hi) {
        List<String> terms = new ArrayList<>();
        if (lo != null) {
            terms.add(firstKey + " >= " + lo);
        }
        if (hi != null) {
            terms.add(firstKey + " <= " + hi);
        }
        if (live != null) {
            terms.add(live);
        }
        return terms.isEmpty() ? "" : " WHERE " + String.join(" AND ", terms);
    }

    private long jdbc(String sql, RowSink sink) throws SQLException {
        long n = 0;
        String[] values = new String[kinds.size()];
        try (Statement s = connection.createStatement()) {
            s.setFetchSize(FETCH);
            try (ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    for (int i = 0; i < values.length; i++) {
                        values[i] = CanonicalValues.readText(rs, i + 1, kinds.get(i));
                    }
                    sink.accept(values);
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * PostgreSQL: {@code COPY (query) TO STDOUT} in text format, in a transaction whose settings make the text
     * canonical-friendly (UTC, ISO dates, hex bytea). Fields are split on tabs, {@code \N} is NULL, and backslash
     * escapes are undone before normalisation.
     */
    private long copy(String sql, RowSink sink) throws SQLException {
        CopyOut out = startCopy(sql);
        CopyParser parser = new CopyParser(kinds);
        long n = 0;
        try {
            byte[] data;
            while ((data = out.readFromCopy()) != null) {
                n += parser.parse(data, sink);
            }
        } finally {
            if (out.isActive()) {
                out.cancelCopy();
            }
        }
        return n;
    }

    private CopyOut startCopy(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("SET LOCAL TimeZone = 'UTC'");
            s.execute("SET LOCAL DateStyle = 'ISO, YMD'");
            s.execute("SET LOCAL bytea_output = 'hex'");
            s.execute("SET LOCAL extra_float_digits = 3");
        }
        return connection.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY (" + sql + ") TO STDOUT");
    }

    /** Reads the live rows with the given keys (canonical text per key column), in batches. */
    void lookup(List<RowKey> keys, RowSink sink) throws SQLException {
        int per = keyKinds.size() == 1 ? 500 : 100;
        String[] values = new String[kinds.size()];
        try {
            for (int from = 0; from < keys.size(); from += per) {
                KeyQuery q = KeyQuery.of(engine, shape, role.equals("source"), keys.subList(from, Math.min(keys.size(), from + per)));
                String sql = "SELECT " + select + " FROM " + table + " WHERE " + q.where() + (live != null ? " AND " + live : "");
                try (PreparedStatement ps = connection.prepareStatement(sql)) {
                    q.bind(ps, 1);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            for (int i = 0; i < values.length; i++) {
                                values[i] = CanonicalValues.readText(rs, i + 1, kinds.get(i));
                            }
                            sink.accept(values);
                        }
                    }
                }
            }
        } finally {
            endRead();
        }
    }

    /** Ends the read transaction on engines that need one (a commit: reads change nothing). */
    private void endRead() throws SQLException {
        if (!connection.getAutoCommit()) {
            connection.commit();
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            if (!connection.getAutoCommit()) {
                connection.rollback();
            }
            if (!owned && connection.getAutoCommit() != autoCommitBefore) {
                connection.setAutoCommit(autoCommitBefore);
            }
        } finally {
            if (owned) {
                connection.close();
            }
        }
    }

    /** Bytes known to be ASCII, seen as characters without copying. */
    static final class AsciiView implements CharSequence {
        private byte[] data;
        private int from;
        private int length;

        AsciiView set(byte[] d, int start, int end) {
            this.data = d;
            this.from = start;
            this.length = end - start;
            return this;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public char charAt(int index) {
            return (char) data[from + index];
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new String(data, from + start, end - start, StandardCharsets.US_ASCII);
        }

        @Override
        public String toString() {
            return new String(data, from, length, StandardCharsets.US_ASCII);
        }
    }

    /** PostgreSQL COPY text format → canonical text per field. */
    static final class CopyParser {
        private final List<ValueKind> kinds;
        private final String[] values;

        CopyParser(List<ValueKind> kinds) {
            this.kinds = kinds;
            this.values = new String[kinds.size()];
        }

        /** Parses one or more complete rows (each ending in a newline) and hands each to {@code sink}. */
        int parse(byte[] data, RowSink sink) {
            int rows = 0;
            int field = 0;
            int start = 0;
            for (int i = 0; i < data.length; i++) {
                byte b = data[i];
                if (b == '\t' || b == '\n') {
                    if (field < values.length) {
                        values[field] = CanonicalValues.ofText(field(data, start, i), kinds.get(field));
                    }
                    field++;
                    start = i + 1;
                    if (b == '\n') {
                        if (field != values.length) {
                            throw new IllegalStateException("COPY row with " + field + " fields, expected " + values.length);
                        }
                        sink.accept(values);
                        rows++;
                        field = 0;
                    }
                }
            }
            if (start != data.length) {
                throw new IllegalStateException("COPY data does not end with a complete row");
            }
            return rows;
        }

        /** Parses complete rows and hands each row's first key and hash to {@code sink}. */
        int hash(byte[] data, int key, RowHash h, HashSink sink) {
            int rows = 0;
            int field = 0;
            int start = 0;
            long k = 0;
            h.begin();
            for (int i = 0; i < data.length; i++) {
                byte b = data[i];
                if (b == '\t' || b == '\n') {
                    if (field < values.length) {
                        feedField(data, start, i, kinds.get(field), h);
                        if (field == key) {
                            k = parseLong(data, start, i, view);
                        }
                    }
                    field++;
                    start = i + 1;
                    if (b == '\n') {
                        if (field != values.length) {
                            throw new IllegalStateException("COPY row with " + field + " fields, expected " + values.length);
                        }
                        sink.accept(k, h.end());
                        rows++;
                        field = 0;
                        h.begin();
                    }
                }
            }
            if (start != data.length) {
                throw new IllegalStateException("COPY data does not end with a complete row");
            }
            return rows;
        }

        private final AsciiView view = new AsciiView();

        private void feedField(byte[] d, int from, int to, ValueKind kind, RowHash h) {
            if (to - from == 2 && d[from] == '\\' && d[from + 1] == 'N') {
                h.nullValue();
            } else {
                feedBytes(d, from, to, kind, h, view, true);
            }
        }

        private String field(byte[] d, int from, int to) {
            if (to - from == 2 && d[from] == '\\' && d[from + 1] == 'N') {
                return null;
            }
            return unescape(d, from, to);
        }

        /** A COPY text field with its backslash escapes undone, decoded from UTF-8. */
        static String unescape(byte[] d, int from, int to) {
            int backslash = -1;
            for (int i = from; i < to; i++) {
                if (d[i] == '\\') {
                    backslash = i;
                    break;
                }
            }
            if (backslash < 0) {
                return new String(d, from, to - from, StandardCharsets.UTF_8);
            }
            byte[] scratch = new byte[to - from];
            int n = 0;
            for (int i = from; i < to; i++) {
                byte b = d[i];
                if (b != '\\' || i + 1 == to) {
                    scratch[n++] = b;
                    continue;
                }
                byte c = d[++i];
                switch (c) {
                    case 'b' -> scratch[n++] = 8;
                    case 'f' -> scratch[n++] = 12;
                    case 'n' -> scratch[n++] = 10;
                    case 'r' -> scratch[n++] = 13;
                    case 't' -> scratch[n++] = 9;
                    case 'v' -> scratch[n++] = 11;
                    case 'x' -> {
                        int v = 0;
                        int digits = 0;
                        while (digits < 2 && i + 1 < to && Character.digit(d[i + 1], 16) >= 0) {
                            v = v * 16 + Character.digit(d[++i], 16);
                            digits++;
                        }
                        scratch[n++] = digits == 0 ? (byte) 'x' : (byte) v;
                    }
                    default -> {
                        if (c >= '0' && c <= '7') {
                            int v = c - '0';
                            int digits = 1;
                            while (digits < 3 && i + 1 < to && d[i + 1] >= '0' && d[i + 1] <= '7') {
                                v = v * 8 + (d[++i] - '0');
                                digits++;
                            }
                            scratch[n++] = (byte) v;
                        } else {
                            scratch[n++] = c; // \\ and any other escaped character stand for themselves
                        }
                    }
                }
            }
            return new String(scratch, 0, n, StandardCharsets.UTF_8);
        }
    }
}
