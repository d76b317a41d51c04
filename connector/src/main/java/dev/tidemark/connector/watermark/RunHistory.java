package dev.tidemark.connector.watermark;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.TemporalText;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code tidemark_watermark_runs}: one row per run of one table (window, rows copied, deletes, observed lateness,
 * duration, status), kept next to the control table. {@link #anomaly} compares a run with the recent ones: a sudden
 * zero after non-zero runs, or a spike over 10× the recent median, is the earliest sign that the cursor column
 * stopped being maintained (or that a bulk update rewrote it). Not thread-safe; commits its own writes.
 */
public final class RunHistory {
    public static final String NAME = "tidemark_watermark_runs";
    /** How many recent incremental runs the anomaly check looks at. */
    static final int RECENT = 10;
    /** A zero is sudden when at least this many runs before it all copied rows. */
    static final int ZERO_AFTER = 3;
    static final int SPIKE_FACTOR = 10;
    private static final List<String> COLUMNS = List.of("table_name", "started_at", "mode", "status", "window_start",
            "window_end", "rows_copied", "deletes", "late_rows", "max_lateness", "chunks", "duration_ms", "warnings",
            "moved_back_rows");
    /** Added after the first release: tables created before lack it and get it from {@link #ensure()}. */
    private static final String MOVED_BACK = "moved_back_rows";

    private final Connection connection;
    private final Dialect dialect;
    private boolean ready;

    public RunHistory(Connection connection, Dialect dialect) {
        this.connection = connection;
        this.dialect = dialect;
    }

    /**
     * One recorded run.
     *
     * @param movedBackRows rows re-read with a cursor value below the one the target held (0 for runs recorded before
     *                      this was counted)
     */
    public record Run(String table, String startedAt, String mode, String status, String windowStart, String windowEnd,
                      long rowsCopied, long deletes, long lateRows, String maxLateness, long movedBackRows, long chunks,
                      long durationMs, String warnings) {
    }

    public void ensure() throws SQLException {
        if (ready) {
            return;
        }
        String t = dialect.columnType(ColumnType.of("string"), false);
        String key = dialect.textType();
        String sql = "CREATE TABLE IF NOT EXISTS " + q(NAME) + " ("
                + q("table_name") + " " + key + " NOT NULL, "
                + q("started_at") + " " + key + " NOT NULL, "
                + q("mode") + " " + t + ", " + q("status") + " " + t + ", "
                + q("window_start") + " " + t + ", " + q("window_end") + " " + t + ", "
                + q("rows_copied") + " " + dialect.bigintType() + ", " + q("deletes") + " " + dialect.bigintType() + ", "
                + q("late_rows") + " " + dialect.bigintType() + ", " + q("max_lateness") + " " + t + ", "
                + q("chunks") + " " + dialect.bigintType() + ", " + q("duration_ms") + " " + dialect.bigintType() + ", "
                + q("warnings") + " " + t + ", " + q(MOVED_BACK) + " " + dialect.bigintType() + ", "
                + "PRIMARY KEY (" + q("table_name") + ", " + q("started_at") + "))";
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
        connection.commit();
        if (!hasColumn(MOVED_BACK)) {
            try (Statement s = connection.createStatement()) {
                s.execute("ALTER TABLE " + q(NAME) + " ADD COLUMN " + q(MOVED_BACK) + " " + dialect.bigintType());
            }
            connection.commit();
        }
        ready = true;
    }

    private boolean hasColumn(String column) throws SQLException {
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM " + q(NAME) + " WHERE 1 = 0")) {
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                if (rs.getMetaData().getColumnName(i).equalsIgnoreCase(column)) {
                    return true;
                }
            }
            return false;
        } finally {
            connection.commit();
        }
    }

    /**
     * The number of the next run of {@code table}: how many runs of it are recorded, so it grows by one with every
     * recorded run (a run that failed before being recorded leaves its number to the next). Watermark positions carry
     * it ({@link dev.tidemark.event.SourcePosition.Watermark#run()}) so that a later run's read of a row wins over an
     * earlier run's; so runs must not be deleted from this table while the pipeline is in use.
     */
    public long nextRun(String table) throws SQLException {
        ensure();
        String sql = "SELECT COUNT(*) FROM " + q(NAME) + " WHERE " + q("table_name") + " = ?";
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } finally {
            connection.commit();
        }
    }

    public void record(Run run) throws SQLException {
        ensure();
        String sql = dialect.upsert(NAME, COLUMNS, List.of("table_name", "started_at"), COLUMNS.subList(2, COLUMNS.size()), null);
        Object[] values = {run.table(), run.startedAt(), run.mode(), run.status(), run.windowStart(), run.windowEnd(),
            run.rowsCopied(), run.deletes(), run.lateRows(), run.maxLateness(), run.chunks(), run.durationMs(), run.warnings(),
            run.movedBackRows()};
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                ColumnType type = values[i] instanceof Long ? ColumnType.of("int64") : ColumnType.of("string");
                dialect.bind(ps, i + 1, values[i], type);
            }
            ps.executeUpdate();
        } catch (SQLException e) {
            connection.rollback();
            throw e;
        }
        connection.commit();
    }

    /** Rows copied by the most recent complete incremental runs of {@code table}, newest first. */
    public List<Long> recentIncrementalRows(String table) throws SQLException {
        ensure();
        String sql = "SELECT " + q("rows_copied") + " FROM " + q(NAME) + " WHERE " + q("table_name") + " = ? AND "
                + q("mode") + " = ? AND " + q("status") + " = ? ORDER BY " + q("started_at")
                + " DESC LIMIT " + RECENT;
        List<Long> out = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, table);
            ps.setString(2, RunKind.INCREMENTAL.historyLabel());
            ps.setString(3, RunStatus.COMPLETE.label());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
        } finally {
            connection.commit();
        }
        return out;
    }

    /** Every recorded run of {@code table}, oldest first. */
    public List<Run> runs(String table) throws SQLException {
        ensure();
        String sql = "SELECT " + String.join(", ", COLUMNS.stream().map(this::q).toList()) + " FROM " + q(NAME)
                + " WHERE " + q("table_name") + " = ? ORDER BY " + q("started_at");
        List<Run> out = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Run(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                            rs.getString(6), rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getString(10), rs.getLong(14),
                            rs.getLong(11), rs.getLong(12), rs.getString(13)));
                }
            }
        } finally {
            connection.commit();
        }
        return out;
    }

    /**
     * The warning for a run that copied {@code rows} given the recent runs (newest first), if it is anomalous:
     * zero after at least {@value #ZERO_AFTER} runs that all copied rows, or more than {@value #SPIKE_FACTOR}× the
     * median of at least three recent runs.
     */
    static Optional<String> anomaly(String table, long rows, List<Long> recent) {
        if (rows == 0 && recent.size() >= ZERO_AFTER && recent.subList(0, ZERO_AFTER).stream().allMatch(n -> n > 0)) {
            return Optional.of("table " + table + ": this run copied 0 rows after " + ZERO_AFTER + " runs that copied "
                    + recent.subList(0, ZERO_AFTER) + "; check that the cursor column is still maintained by every writer");
        }
        if (recent.size() >= 3) {
            List<Long> sorted = recent.stream().sorted().toList();
            long median = sorted.get(sorted.size() / 2);
            if (median > 0 && rows > SPIKE_FACTOR * median) {
                return Optional.of("table " + table + ": this run copied " + rows + " rows, over " + SPIKE_FACTOR
                        + "× the recent median of " + median + "; a bulk update rewrote the cursor column, or it was not maintained and was just backfilled");
            }
        }
        return Optional.empty();
    }

    static String now() {
        return TemporalText.instant(java.time.Instant.now());
    }

    private String q(String identifier) {
        return dialect.quote(identifier);
    }
}
