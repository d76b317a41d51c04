package dev.tidemark.reconcile;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@value #TABLE} in the target: one row per table per scheduled reconcile run (when, counts found, rows repaired,
 * keys still different at the end, duration, outcome), so every process that reads the target ({@code tidemark
 * status}, the sidecar's {@code /metrics}) sees the same proof. Writes go through a connection in auto-commit mode
 * that the caller owns; {@link #summarize} is pure.
 */
public final class ReconcileHistory {
    public static final String TABLE = "tidemark_reconcile_runs";
    /** The newest rows read back, enough for the last run of every table of a large pipeline. */
    static final int READ_LIMIT = 1000;
    private static final List<String> COLUMNS = List.of("pipeline", "table_name", "run_started_at", "finished_at", "source_rows",
            "target_rows", "missing", "surplus", "changed", "repaired", "remaining", "duration_ms", "outcome");

    private ReconcileHistory() {
    }

    /**
     * One table of one run.
     *
     * @param runStartedAt when the run began (every table of a run shares it)
     * @param remaining    keys still different when the run ended (0 after a repair to equal), -1 when unknown (the
     *                     comparison failed or did not start)
     * @param outcome      {@link Outcome}
     */
    public record Row(String pipeline, String table, Instant runStartedAt, Instant finishedAt, long sourceRows, long targetRows,
                      long missing, long surplus, long changed, long repaired, long remaining, long durationMs, Outcome outcome,
                      String detail) {
        /** Keys the comparison found different after its settle re-check, before any repair. */
        public long found() {
            return missing + surplus + changed;
        }

        /** Whether the table was compared to the end (different or not). */
        public boolean compared() {
            return outcome != Outcome.FAILED && outcome != Outcome.NOT_STARTED;
        }

        /** The outcome column: the outcome's label, then the detail when there is one. */
        String outcomeText() {
            return detail == null || detail.isEmpty() ? outcome.label() : outcome.label() + ": " + detail;
        }
    }

    /** How one table's comparison ended. */
    public enum Outcome {
        EQUAL("equal"), DIFFERENT("different"), REPAIRED("repaired"), REFUSED("refused"), FAILED("failed"), NOT_STARTED("not started");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        static Outcome ofText(String text) {
            for (Outcome o : values()) {
                if (text != null && (text.equals(o.label) || text.startsWith(o.label + ": "))) {
                    return o;
                }
            }
            return FAILED;
        }
    }

    /**
     * Each table's newest row, each table's newest row that found differences ({@code lastDrift}, absent when none of
     * the rows read did), and when the newest run that compared all its tables ended.
     */
    public record Summary(Map<String, Row> latest, Map<String, Row> lastDrift, Optional<Instant> lastSuccess) {
    }

    public static void ensure(Connection c, Dialect d) throws SQLException {
        String text = d.columnType(ColumnType.of("string"), false);
        String key = d.textType();
        String big = d.bigintType();
        StringBuilder sql = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(d.quote(TABLE)).append(" (");
        for (String col : COLUMNS) {
            String type = col.equals("pipeline") || col.equals("table_name") || col.equals("run_started_at") ? key + " NOT NULL"
                    : col.equals("finished_at") || col.equals("outcome") ? text : big;
            sql.append(d.quote(col)).append(' ').append(type).append(", ");
        }
        sql.append("PRIMARY KEY (").append(d.quote("pipeline")).append(", ").append(d.quote("table_name")).append(", ")
                .append(d.quote("run_started_at")).append("))");
        try (Statement s = c.createStatement()) {
            s.execute(sql.toString());
        }
    }

    public static void record(Connection c, Dialect d, Row r) throws SQLException {
        String sql = "INSERT INTO " + d.quote(TABLE) + " (" + String.join(", ", COLUMNS.stream().map(d::quote).toList()) + ") VALUES ("
                + String.join(", ", COLUMNS.stream().map(x -> "?").toList()) + ")";
        Object[] values = {r.pipeline(), r.table(), r.runStartedAt().toString(), r.finishedAt().toString(), r.sourceRows(),
            r.targetRows(), r.missing(), r.surplus(), r.changed(), r.repaired(), r.remaining(), r.durationMs(), r.outcomeText()};
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                d.bind(ps, i + 1, values[i], ColumnType.of(values[i] instanceof Long ? "int64" : "string"));
            }
            ps.executeUpdate();
        }
    }

    /** The newest rows of {@code pipeline}, newest run first; the table must exist. */
    public static List<Row> recent(Connection c, Dialect d, String pipeline) throws SQLException {
        String sql = "SELECT " + String.join(", ", COLUMNS.stream().map(d::quote).toList()) + " FROM " + d.quote(TABLE) + " WHERE "
                + d.quote("pipeline") + " = ? ORDER BY " + d.quote("run_started_at") + " DESC, " + d.quote("table_name") + " LIMIT " + READ_LIMIT;
        List<Row> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, pipeline);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String outcome = rs.getString(13);
                    int colon = outcome == null ? -1 : outcome.indexOf(": ");
                    out.add(new Row(rs.getString(1), rs.getString(2), Instant.parse(rs.getString(3)), Instant.parse(rs.getString(4)),
                            rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10), rs.getLong(11),
                            rs.getLong(12), Outcome.ofText(outcome), colon < 0 ? "" : outcome.substring(colon + 2)));
                }
            }
        }
        return out;
    }

    /** Pure: {@code newestFirst} as each table's newest row and the end of the newest run whose every table was compared. */
    public static Summary summarize(List<Row> newestFirst) {
        Map<String, Row> latest = new LinkedHashMap<>();
        Map<String, Row> drift = new LinkedHashMap<>();
        Map<Instant, List<Row>> runs = new LinkedHashMap<>();
        for (Row r : newestFirst) {
            latest.putIfAbsent(r.table(), r);
            if (r.found() > 0) {
                drift.putIfAbsent(r.table(), r);
            }
            runs.computeIfAbsent(r.runStartedAt(), k -> new ArrayList<>()).add(r);
        }
        Optional<Instant> success = runs.values().stream().filter(rows -> rows.stream().allMatch(Row::compared))
                .map(rows -> rows.stream().map(Row::finishedAt).max(Instant::compareTo).orElseThrow()).max(Instant::compareTo);
        return new Summary(latest, drift, success);
    }
}
