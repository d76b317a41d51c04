package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ReadPath;
import java.sql.SQLException;

/**
 * Streams one side's rows as canonical text or as row hashes, the way its engine is cheapest to read
 * ({@link dev.tidemark.jdbc.Database#readPath()}): {@link CopyRowReader} (PostgreSQL's COPY), {@link RowTextReader}
 * (SQLite, one text per row) and {@link ResultSetRowReader} (MariaDB and other JDBC). Readers only read: the
 * {@link TableSide} front builds the SQL and ends the read transaction. Not thread-safe: one per side.
 */
interface RowReader {

    /** The reader for a read path. */
    static RowReader of(ReadPath path, SideQuery query) {
        return switch (path) {
            case COPY_TEXT -> new CopyRowReader(query);
            case ROW_TEXT -> new RowTextReader(query);
            case RESULT_SET -> new ResultSetRowReader(query);
        };
    }

    /**
     * Streams the rows of {@code sql}, a {@code SELECT} of the side's compared columns, as canonical text.
     *
     * @return rows read
     */
    long read(String sql, TableSide.RowSink sink) throws SQLException;

    /**
     * Streams the rows selected by {@code where} (a {@code WHERE} clause or "") in the order of {@code order} (an
     * {@code ORDER BY} clause or ""), handing each row's first key (an integer) and hash to {@code sink}. The hash
     * equals {@link RowHash#of} over the row's {@link CanonicalValues#ofText} values whichever way it was read.
     *
     * @return rows read
     */
    long hash(String where, String order, TableSide.HashSink sink) throws SQLException;
}
