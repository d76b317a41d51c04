package dev.tidemark.reconcile;

import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What {@link Reconciler#reconcile} compares: one source table with its target copy, by key and row checksum.
 * Immutable and always valid (the compact constructor checks every setting); build with {@link #of}, which holds the
 * defaults, and refine with the {@code with…} methods.
 *
 * @param source          the source database
 * @param sourceTable     the source table, {@code schema.table} or {@code table} (SQLite)
 * @param target          the target database
 * @param targetTable     the target table name, in the target connection's current schema/database (the sink writes
 *                        the source table's name without its schema there)
 * @param keyColumns      the key columns in key order; empty = the source table's primary key
 * @param excludedColumns source columns left out of the comparison (and out of repairs). Tidemark's own target
 *                        columns ({@code __tidemark_position}, {@code __tidemark_deleted}) are always left out
 * @param settle          how long to wait before re-checking keys found different (rows changed during the
 *                        comparison may still be on their way to the target); {@link Duration#ZERO} re-checks at once
 * @param segmentRows     rows per leaf segment: mismatching segments up to about this size are compared row by row,
 *                        larger ones are bisected first
 * @param keyLimit        most keys kept per class (missing, surplus, changed); counts stay exact beyond it, but
 *                        keys beyond it are neither listed nor re-checked ({@link ReconcileResult#complete()} false)
 * @param positionColumn  the target's row-position column (excluded from the comparison)
 * @param progress        where to draw a progress bar for long runs (stderr), or null for none
 * @param listener        callbacks between phases (tests use them to make live traffic deterministic)
 */
public record ReconcileRequest(Endpoint source, TableId sourceTable, Endpoint target, String targetTable,
                               List<String> keyColumns, Set<String> excludedColumns, Duration settle, int segmentRows,
                               int keyLimit, String positionColumn, PrintStream progress, Listener listener) {
    public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(5);
    public static final int DEFAULT_SEGMENT_ROWS = 10_000;
    public static final int DEFAULT_KEY_LIMIT = 100_000;

    public ReconcileRequest {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(sourceTable, "sourceTable");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(targetTable, "targetTable");
        Objects.requireNonNull(settle, "settle");
        Objects.requireNonNull(positionColumn, "positionColumn");
        keyColumns = List.copyOf(keyColumns);
        excludedColumns = Set.copyOf(excludedColumns);
        listener = listener == null ? Listener.NONE : listener;
        if (targetTable.isBlank()) {
            throw new IllegalArgumentException("target table name must not be blank");
        }
        if (settle.isNegative()) {
            throw new IllegalArgumentException("settle must not be negative: " + settle);
        }
        if (segmentRows < 2) {
            throw new IllegalArgumentException("segmentRows must be at least 2: " + segmentRows);
        }
        if (keyLimit < 1) {
            throw new IllegalArgumentException("keyLimit must be at least 1: " + keyLimit);
        }
    }

    /**
     * A request with the defaults: the source primary key, no exclusions, 5 s settle, 10,000-row segments,
     * 100,000 keys per class, {@code __tidemark_position}, no progress bar.
     */
    public static ReconcileRequest of(Endpoint source, TableId sourceTable, Endpoint target, String targetTable) {
        return new ReconcileRequest(source, sourceTable, target, targetTable, List.of(), Set.of(), DEFAULT_SETTLE,
                DEFAULT_SEGMENT_ROWS, DEFAULT_KEY_LIMIT, SinkOptions.DEFAULT_POSITION_COLUMN, null, Listener.NONE);
    }

    public ReconcileRequest withKeyColumns(List<String> keys) {
        return edit(b -> b.keyColumns = keys);
    }

    public ReconcileRequest withExcludedColumns(Set<String> excluded) {
        return edit(b -> b.excludedColumns = excluded);
    }

    public ReconcileRequest withSettle(Duration d) {
        return edit(b -> b.settle = d);
    }

    public ReconcileRequest withSegmentRows(int rows) {
        return edit(b -> b.segmentRows = rows);
    }

    public ReconcileRequest withKeyLimit(int limit) {
        return edit(b -> b.keyLimit = limit);
    }

    public ReconcileRequest withPositionColumn(String column) {
        return edit(b -> b.positionColumn = column);
    }

    public ReconcileRequest withProgress(PrintStream out) {
        return edit(b -> b.progress = out);
    }

    public ReconcileRequest withListener(Listener l) {
        return edit(b -> b.listener = l);
    }

    /** This request with one setting changed; the new request is validated like any other. */
    private ReconcileRequest edit(Consumer<Copy> change) {
        Copy b = new Copy(this);
        change.accept(b);
        return new ReconcileRequest(source, sourceTable, target, targetTable, b.keyColumns, b.excludedColumns, b.settle,
                b.segmentRows, b.keyLimit, b.positionColumn, b.progress, b.listener);
    }

    /** The refinable settings of a request, copied for one {@code with…} call. */
    private static final class Copy {
        List<String> keyColumns;
        Set<String> excludedColumns;
        Duration settle;
        int segmentRows;
        int keyLimit;
        String positionColumn;
        PrintStream progress;
        Listener listener;

        Copy(ReconcileRequest r) {
            keyColumns = r.keyColumns;
            excludedColumns = r.excludedColumns;
            settle = r.settle;
            segmentRows = r.segmentRows;
            keyLimit = r.keyLimit;
            positionColumn = r.positionColumn;
            progress = r.progress;
            listener = r.listener;
        }
    }

    /**
     * One database: either a JDBC URL with driver properties (the reconciler opens and closes its own connection),
     * or a connection the caller owns (used as is, never closed; its auto-commit setting is restored afterwards; it
     * must not be used by anyone else while the reconciler runs).
     */
    public record Endpoint(String jdbcUrl, Properties properties, Connection connection) {
        public Endpoint {
            if (jdbcUrl == null && connection == null) {
                throw new IllegalArgumentException("an endpoint needs a JDBC URL or a connection");
            }
            Properties copy = new Properties();
            if (properties != null) {
                copy.putAll(properties);
            }
            properties = copy;
        }

        public static Endpoint of(String jdbcUrl, Properties properties) {
            return new Endpoint(Objects.requireNonNull(jdbcUrl, "jdbcUrl"), properties, null);
        }

        public static Endpoint of(String jdbcUrl, String user, String password) {
            Properties p = new Properties();
            if (user != null) {
                p.setProperty("user", user);
            }
            if (password != null && !password.isEmpty()) {
                p.setProperty("password", password);
            }
            return of(jdbcUrl, p);
        }

        /** A connection the caller owns; its URL is read from the connection's metadata. */
        public static Endpoint of(Connection connection) {
            try {
                return new Endpoint(connection.getMetaData().getURL(), null, connection);
            } catch (SQLException e) {
                throw new IllegalArgumentException("cannot read the connection's URL: " + e.getMessage(), e);
            }
        }

        /** The given connection, or a new one to the URL (the caller of this method closes what it opened). */
        Connection open() throws SQLException {
            return connection != null ? connection : DriverManager.getConnection(jdbcUrl, properties);
        }

        boolean owned() {
            return connection == null;
        }

        @Override
        public String toString() {
            return UrlMask.mask(jdbcUrl);
        }
    }

    /**
     * Callbacks between the phases of one reconcile, on the reconciling thread. Exceptions thrown here abort the
     * reconcile. Default methods do nothing.
     */
    public interface Listener {
        Listener NONE = new Listener() {
        };

        /**
         * The scan is done and found {@code differences} keys different; the settle wait and the re-check of those keys
         * come next.
         */
        default void scanned(int differences) {
        }
    }
}
