package dev.tidemark.reconcile;

import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

/**
 * PostgreSQL's rows through {@code COPY (query) TO STDOUT} in text format, the cheapest way to get every row's
 * content out of it, in a transaction whose settings make the text canonical-friendly (UTC, ISO dates, hex bytea,
 * round-tripping floats); parsed by {@link CopyParser}, hashed field by field where only hashes are wanted.
 */
final class CopyRowReader implements RowReader {
    private final SideQuery query;

    CopyRowReader(SideQuery query) {
        this.query = query;
    }

    @Override
    public long read(String sql, TableSide.RowSink sink) throws SQLException {
        CopyParser parser = new CopyParser(query.kinds());
        return stream(sql, data -> parser.parse(data, sink));
    }

    /** COPY text rows hashed field by field; ASCII fields without escapes are read in place. */
    @Override
    public long hash(String where, String order, TableSide.HashSink sink) throws SQLException {
        CopyParser parser = new CopyParser(query.kinds());
        RowHash h = new RowHash();
        return stream(query.selectAll(where, order), data -> parser.hash(data, query.keyIndex(), h, sink));
    }

    /** Handles one chunk of complete COPY rows; returns how many rows it held. */
    @FunctionalInterface
    private interface Chunks {
        int accept(byte[] data);
    }

    private long stream(String sql, Chunks chunks) throws SQLException {
        CopyOut out = startCopy(sql);
        long n = 0;
        try {
            byte[] data;
            while ((data = out.readFromCopy()) != null) {
                n += chunks.accept(data);
            }
        } finally {
            if (out.isActive()) {
                out.cancelCopy();
            }
        }
        return n;
    }

    private CopyOut startCopy(String sql) throws SQLException {
        try (Statement s = query.connection().createStatement()) {
            s.execute("SET LOCAL TimeZone = 'UTC'");
            s.execute("SET LOCAL DateStyle = 'ISO, YMD'");
            s.execute("SET LOCAL bytea_output = 'hex'");
            s.execute("SET LOCAL extra_float_digits = 3");
        }
        return query.connection().unwrap(PGConnection.class).getCopyAPI().copyOut("COPY (" + sql + ") TO STDOUT");
    }
}
