package dev.tidemark.cli.observability;

import dev.tidemark.connector.config.TargetAccess;
import dev.tidemark.cli.status.ExistingTarget;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.Dialect;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The watermark runs recorded in the pipeline target's {@code tidemark_watermark_runs} (written by
 * {@code tidemark watermark} into the same target), read-only: a SQLite file that does not exist is not opened and
 * a missing table means no runs; nothing is created.
 */
final class WatermarkRuns {
    static final String TABLE = "tidemark_watermark_runs";
    /** The newest runs kept for the status page. */
    static final int SHOWN = 20;

    private WatermarkRuns() {
    }

    /** One recorded run. */
    record Run(String table, String startedAt, String mode, String status, long rows) {
    }

    /** Per table: how many runs are recorded and the rows the newest one copied. */
    record Summary(String table, long runs, long lastRows) {
    }

    /** Newest first, all tables. */
    static List<Run> read(PipelineConfig config) throws SQLException {
        if (ExistingTarget.absentFile(config).isPresent()) {
            return List.of();
        }
        Dialect d = Databases.targetForUrl(config.target().jdbcUrl());
        try (Connection c = TargetAccess.open(config)) {
            if (!exists(c)) {
                return List.of();
            }
            String sql = "SELECT " + d.quote("table_name") + ", " + d.quote("started_at") + ", " + d.quote("mode") + ", "
                    + d.quote("status") + ", " + d.quote("rows_copied") + " FROM " + d.quote(TABLE) + " ORDER BY " + d.quote("started_at") + " DESC";
            List<Run> out = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    out.add(new Run(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getLong(5)));
                }
            }
            return out;
        }
    }

    /** Per table, in order of the newest run (pure). */
    static List<Summary> summarize(List<Run> newestFirst) {
        Map<String, long[]> counts = new LinkedHashMap<>();
        for (Run r : newestFirst) {
            counts.computeIfAbsent(r.table(), t -> new long[] {0, r.rows()})[0]++;
        }
        List<Summary> out = new ArrayList<>();
        counts.forEach((t, v) -> out.add(new Summary(t, v[0], v[1])));
        return out;
    }

    private static boolean exists(Connection c) throws SQLException {
        for (String name : new String[] {TABLE, TABLE.toUpperCase(java.util.Locale.ROOT)}) {
            try (ResultSet rs = c.getMetaData().getTables(null, null, name, null)) {
                if (rs.next()) {
                    return true;
                }
            }
        }
        return false;
    }
}
