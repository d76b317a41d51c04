package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.Durations;

import dev.tidemark.jdbc.ColumnKind;
import dev.tidemark.jdbc.CursorValue;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.SourceSql;
import dev.tidemark.jdbc.SourceTable;
import dev.tidemark.jdbc.TextTime;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Checks run before the first window of a table (and on request), each reported as a warning with its fix:
 * <ul>
 *   <li><b>index</b>: without an index whose first column is the cursor, every run scans the whole table (the
 *       no-change run stops being O(changed rows)); on PostgreSQL the plan of {@code MAX(cursor)} is shown;</li>
 *   <li><b>nulls</b>: rows whose cursor is NULL are never inside any window, so they are never copied;</li>
 *   <li><b>precision</b>: a cursor finer than what is compared or stored (nanosecond text where events carry
 *       microseconds, a control table that truncates), second-resolution timestamps without a tie-break, SQLite
 *       date-time text in mixed shapes (compared as text, so misordered);</li>
 *   <li><b>time zone</b>: a cursor without time zone whose values run ahead of the session clock was written in
 *       another zone than the session's, which shifts the settle delay and the lateness report.</li>
 * </ul>
 */
final class SafetyProbes {
    private static final int SAMPLE = 1000;

    /** The probes, each with the label its warnings carry. */
    enum Check {
        INDEX("index"), NULLS("nulls"), PRECISION("precision"), TIME_ZONE("time zone");

        private final String label;

        Check(String label) {
            this.label = label;
        }
    }

    /** One finding: which probe, what is wrong and how to fix it. */
    record Warning(Check check, String problem, String fix) {
        String format() {
            return "warning [" + check.label + "]: " + problem + "\n  fix: " + fix;
        }
    }

    private final Connection source;
    private final SourceSql sql;
    private final SourceTable table;
    private final WatermarkTable settings;

    SafetyProbes(Connection source, SourceSql sql, SourceTable table, WatermarkTable settings) {
        this.source = source;
        this.sql = sql;
        this.table = table;
        this.settings = settings;
    }

    List<Warning> run(ControlTable control, CursorValue max) throws SQLException {
        List<Warning> out = new ArrayList<>();
        index().ifPresent(out::add);
        nulls().ifPresent(out::add);
        out.addAll(precision(control, max));
        timeZone(max).ifPresent(out::add);
        return out;
    }

    Optional<Warning> index() throws SQLException {
        String cursor = settings.cursor().primaryColumn();
        if (hasIndexOn(cursor)) {
            return Optional.empty();
        }
        String cols = String.join(", ", settings.cursor().columns().stream().map(sql::quote).toList());
        String name = sql.quote(("ix_" + table.id().table() + "_" + String.join("_", settings.cursor().columns()))
                .toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_"));
        String plan = "";
        if (sql.explainsPlans()) {
            plan = "; EXPLAIN " + WindowQuery.maxSql(sql, table, cursor) + " shows: " + explain(WindowQuery.maxSql(sql, table, cursor));
        }
        return Optional.of(new Warning(Check.INDEX, "table " + table.id() + " has no index whose first column is the cursor "
                + cursor + ": every run reads the whole table to find MAX(" + cursor + ") and the window" + plan,
                "CREATE INDEX " + name + " ON " + sql.qualified(table.id()) + " (" + cols + ")"));
    }

    private boolean hasIndexOn(String column) throws SQLException {
        return sql.hasIndexStartingWith(source, table, column);
    }

    private String explain(String query) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Statement s = source.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN " + query)) {
            while (rs.next()) {
                lines.add(rs.getString(1).trim());
            }
        }
        return String.join(" / ", lines);
    }

    Optional<Warning> nulls() throws SQLException {
        String cursor = settings.cursor().primaryColumn();
        long n;
        try (Statement s = source.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + sql.qualified(table.id()) + " WHERE " + sql.quote(cursor) + " IS NULL")) {
            rs.next();
            n = rs.getLong(1);
        }
        if (n == 0) {
            return Optional.empty();
        }
        String now = settings.cursor() instanceof Cursor.Id ? "<next id>" : sql.nowExpression();
        return Optional.of(new Warning(Check.NULLS, "table " + table.id() + ": " + n + " row" + (n == 1 ? " has" : "s have")
                + " a NULL cursor " + cursor + " and will never be copied (no window contains NULL)",
                "UPDATE " + sql.qualified(table.id()) + " SET " + sql.quote(cursor) + " = " + now + " WHERE "
                        + sql.quote(cursor) + " IS NULL; then make the column NOT NULL with a default so writers cannot leave it empty"));
    }

    List<Warning> precision(ControlTable control, CursorValue max) throws SQLException {
        List<Warning> out = new ArrayList<>();
        SourceColumn c = table.require(settings.cursor().primaryColumn(), "cursor");
        int digits = c.fractionDigits();
        Set<String> shapes = new HashSet<>();
        if (sql.temporalsAsText() && c.kind().temporal()) {
            try (PreparedStatement ps = source.prepareStatement("SELECT " + sql.quote(c.name()) + " FROM " + sql.qualified(table.id())
                    + " WHERE " + sql.quote(c.name()) + " IS NOT NULL ORDER BY " + sql.quote(c.name()) + " DESC LIMIT " + SAMPLE);
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Optional<TextTime> t = TextTime.parse(rs.getString(1));
                    if (t.isEmpty()) {
                        shapes.add("unparsable '" + rs.getString(1) + "'");
                        continue;
                    }
                    TextTime.Shape s = t.get().shape();
                    digits = Math.max(digits, s.fractionDigits());
                    shapes.add(s.dateOnly() ? "date" : "separator '" + s.separator() + "'" + (s.zone() == null ? "" : " zone " + s.zone()));
                }
            }
            if (shapes.size() > 1) {
                out.add(new Warning(Check.PRECISION, "table " + table.id() + ": cursor " + c.name() + " holds date-time text in "
                        + shapes.size() + " shapes " + shapes + "; SQLite compares text, so these do not sort by time",
                        "rewrite the column to one shape, e.g. UPDATE … SET " + sql.quote(c.name()) + " = strftime('%Y-%m-%d %H:%M:%f', "
                                + sql.quote(c.name()) + ")"));
            }
        }
        if (digits > 6 && c.kind() != ColumnKind.DATE) {
            out.add(new Warning(Check.PRECISION, "table " + table.id() + ": cursor " + c.name() + " has " + digits
                    + " fraction digits but change events carry microseconds (6); windows compare the exact value, "
                    + "but the copied values lose the last digits", "declare the column with microsecond precision"));
        }
        if (digits == 0 && settings.cursor() instanceof Cursor.Timestamp && c.kind() != ColumnKind.DATE) {
            out.add(new Warning(Check.PRECISION, "table " + table.id() + ": cursor " + c.name() + " has whole-second precision: "
                    + "many rows can share one value, and rows that get the boundary value after a run are not seen by the next",
                    "use a timestamp+id cursor (--cursor " + c.name() + "," + String.join(",", settings.keyColumns().isEmpty()
                            ? table.primaryKey() : settings.keyColumns()) + ") or a finer column type"));
        }
        if (max != null) {
            Optional<String> back = control.roundTrip(max);
            if (back.isPresent()) {
                out.add(new Warning(Check.PRECISION, "table " + table.id() + ": the control table " + ControlTable.NAME + " ("
                        + control.dialect().name() + ") stores the cursor value " + max.serialize() + " back as " + back.get()
                        + "; a truncated watermark re-reads or skips rows at the boundary",
                        "keep the control table in a database whose timestamp type holds the cursor's precision"));
            }
        }
        return out;
    }

    Optional<Warning> timeZone(CursorValue max) throws SQLException {
        if (max == null) {
            return Optional.empty();
        }
        Duration ahead;
        String zone;
        if (max instanceof CursorValue.Local l) {
            LocalDateTime now = SourceSql.queryOne(source, sql.localNowSql(), rs -> rs.getObject(1, LocalDateTime.class));
            ahead = Duration.between(now, l.value());
            zone = sql.sessionTimeZone(source).orElse("unknown");
        } else if (max instanceof CursorValue.Text t && TextTime.parse(t.raw()).map(x -> x.value() instanceof LocalDateTime).orElse(false)) {
            LocalDateTime v = (LocalDateTime) TextTime.parse(t.raw()).orElseThrow().value();
            ahead = Duration.between(LocalDateTime.ofInstant(Instant.now(), ZoneOffset.UTC), v);
            zone = "UTC (SQLite's clock)";
        } else {
            return Optional.empty();
        }
        if (ahead.compareTo(Duration.ofMinutes(1)) <= 0) {
            return Optional.empty();
        }
        return Optional.of(new Warning(Check.TIME_ZONE, "table " + table.id() + ": the newest cursor value " + max.render() + " of "
                + settings.cursor().primaryColumn() + " (a timestamp without time zone) is " + Durations.format(ahead)
                + " ahead of the session clock in time zone " + zone + ": writers stamp it in another zone, so the settle "
                + "delay and lateness are off by that much",
                "run the source session in the writers' zone (PostgreSQL: ?options=-c%20TimeZone%3D<zone> in the URL; "
                        + "MariaDB: sessionVariables=time_zone='<zone>'), or store the cursor as timestamp with time zone"));
    }
}
