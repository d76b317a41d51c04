package dev.tidemark.reconcile;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Rows through a plain JDBC result set, streamed ({@value #FETCH} rows a fetch) and normalised column by column:
 * how MariaDB and other JDBC engines are read, and SQLite's fallback when its row text cannot be split.
 */
final class ResultSetRowReader implements RowReader {
    private static final int FETCH = 5_000;

    private final SideQuery query;

    ResultSetRowReader(SideQuery query) {
        this.query = query;
    }

    @Override
    public long read(String sql, TableSide.RowSink sink) throws SQLException {
        long n = 0;
        String[] values = new String[query.kinds().size()];
        try (Statement s = query.connection().createStatement()) {
            s.setFetchSize(FETCH);
            try (ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    for (int i = 0; i < values.length; i++) {
                        values[i] = CanonicalValues.readText(rs, i + 1, query.kinds().get(i));
                    }
                    sink.accept(values);
                    n++;
                }
            }
        }
        return n;
    }

    @Override
    public long hash(String where, String order, TableSide.HashSink sink) throws SQLException {
        RowHash h = new RowHash();
        int key = query.keyIndex();
        return read(query.selectAll(where, order), values -> {
            h.begin();
            for (String v : values) {
                h.value(v);
            }
            sink.accept(Long.parseLong(values[key]), h.end());
        });
    }
}
