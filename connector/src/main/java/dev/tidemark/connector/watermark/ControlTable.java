package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.ColumnKind;
import dev.tidemark.jdbc.CursorValue;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.Dialect;
import dev.tidemark.sink.jdbc.SideWrite;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/**
 * {@code tidemark_watermarks}: one row per source table (keyed by {@code schema.table}) holding its committed
 * watermark and, while a window is being copied, that window and the last key committed (so a stopped run resumes
 * the same window after that key).
 *
 * <p>The watermark is stored in the cursor column's own type, created through the target's {@link Dialect} exactly
 * as the sink creates a column of that type, so it keeps the source precision: {@code wm_zoned} for timestamps with
 * time zone, {@code wm_local} for timestamps without, {@code wm_date}, {@code wm_number} for ids, {@code wm_text} for
 * SQLite date-time text (the exact source text), {@code wm_tiebreak} for the id of a timestamp+id cursor.
 * {@code wm_position} repeats it as the sortable rendering events carry. The in-progress columns hold the exact
 * serialisation of {@link Watermark}.
 *
 * <p>Writes are {@link SideWrite}s: in direct mode they run inside the sink's transaction with the rows of the chunk
 * (atomic); in Kafka mode they run on this table's own connection after every record was acknowledged. Reads use
 * the connection given here and commit at once. Not thread-safe.
 */
public final class ControlTable {
    public static final String NAME = "tidemark_watermarks";
    static final ColumnType ZONED = ColumnKind.ZONED.columnType(0, 0);
    static final ColumnType LOCAL = new ColumnType("int64", ColumnType.TIMESTAMP_NANOS, java.util.Map.of());
    static final ColumnType DATE = ColumnKind.DATE.columnType(0, 0);
    static final ColumnType BIGINT = ColumnType.of("int64");
    static final ColumnType TEXT = ColumnType.of("string");
    static final List<String> COLUMNS = List.of("table_name", "cursor_kind", "cursor_columns", "wm_zoned", "wm_local",
            "wm_date", "wm_number", "wm_text", "wm_tiebreak", "wm_position", "window_start", "window_end", "resume_key",
            "window_rows", "updated_at");

    private final Connection connection;
    private final Dialect dialect;
    private boolean ready;

    public ControlTable(Connection connection, Dialect dialect) {
        this.connection = connection;
        this.dialect = dialect;
    }

    public Dialect dialect() {
        return dialect;
    }

    /** The stored state of one table. */
    public record State(String cursorKind, String cursorColumns, Watermark watermark, InProgress inProgress) {
    }

    /** A window being copied: its bounds, the last key committed (JSON), rows committed so far. */
    public record InProgress(Window window, String resumeKey, long rows) {
    }

    /** Creates the table if absent, in its own transaction (DDL commits implicitly on some engines). */
    public void ensure() throws SQLException {
        if (ready) {
            return;
        }
        String text = dialect.columnType(TEXT, false);
        String sql = "CREATE TABLE IF NOT EXISTS " + q(NAME) + " ("
                + q("table_name") + " " + dialect.textType() + " NOT NULL, "
                + q("cursor_kind") + " " + text + " NOT NULL, "
                + q("cursor_columns") + " " + text + " NOT NULL, "
                + q("wm_zoned") + " " + dialect.columnType(ZONED, false) + ", "
                + q("wm_local") + " " + dialect.columnType(LOCAL, false) + ", "
                + q("wm_date") + " " + dialect.columnType(DATE, false) + ", "
                + q("wm_number") + " " + dialect.bigintType() + ", "
                + q("wm_text") + " " + text + ", "
                + q("wm_tiebreak") + " " + dialect.bigintType() + ", "
                + q("wm_position") + " " + text + ", "
                + q("window_start") + " " + text + ", "
                + q("window_end") + " " + text + ", "
                + q("resume_key") + " " + text + ", "
                + q("window_rows") + " " + dialect.bigintType() + ", "
                + q("updated_at") + " " + text + ", "
                + "PRIMARY KEY (" + q("table_name") + "))";
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
        connection.commit();
        ready = true;
    }

    public Optional<State> read(String table) throws SQLException {
        ensure();
        State state = null;
        String sql = "SELECT " + String.join(", ", COLUMNS.stream().map(this::q).toList()) + " FROM " + q(NAME)
                + " WHERE " + q("table_name") + " = ?";
        // commit only once the statement is closed: an open SQLite statement keeps its read snapshot alive
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    state = state(rs, dialect.name());
                }
            }
        } finally {
            connection.commit();
        }
        return Optional.ofNullable(state);
    }

    private static State state(ResultSet rs, String engine) throws SQLException {
        CursorValue value = null;
        boolean sqlite = engine.equals("sqlite");
        if (rs.getObject("wm_zoned") != null) {
            // PostgreSQL: timestamptz; MariaDB: DATETIME(6) holding UTC (the sink's convention); SQLite: ISO text
            value = new CursorValue.Zoned(sqlite ? instant(rs.getString("wm_zoned")) : engine.equals("mariadb")
                    ? rs.getObject("wm_zoned", LocalDateTime.class).toInstant(java.time.ZoneOffset.UTC)
                    : rs.getObject("wm_zoned", OffsetDateTime.class).toInstant());
        } else if (rs.getObject("wm_local") != null) {
            value = new CursorValue.Local(sqlite ? local(rs.getString("wm_local")) : rs.getObject("wm_local", LocalDateTime.class));
        } else if (rs.getObject("wm_date") != null) {
            value = new CursorValue.Day(sqlite ? date(rs.getString("wm_date")) : rs.getObject("wm_date", LocalDate.class));
        } else if (rs.getObject("wm_number") != null) {
            value = new CursorValue.Number(rs.getLong("wm_number"));
        } else if (rs.getString("wm_text") != null) {
            value = new CursorValue.Text(rs.getString("wm_text"));
        }
        Object tie = rs.getObject("wm_tiebreak");
        Watermark watermark = value == null ? null : new Watermark(value, tie == null ? null : ((java.lang.Number) tie).longValue());
        InProgress progress = null;
        String end = rs.getString("window_end");
        if (end != null) {
            String start = rs.getString("window_start");
            Window w = Window.incremental(start == null || start.isEmpty() ? null : Watermark.deserialize(start),
                    Watermark.deserialize(end));
            progress = new InProgress(w, rs.getString("resume_key"), rs.getLong("window_rows"));
        }
        return new State(rs.getString("cursor_kind"), rs.getString("cursor_columns"), watermark, progress);
    }

    /** The write that records a completed window: the new watermark, no window in progress. */
    public SideWrite complete(WatermarkTable table, Watermark watermark) {
        return SideWrite.on(NAME, (c, d) -> upsert(c, table, watermark, null, null, 0));
    }

    /** The write that records progress inside a window: the watermark unchanged, the window and last key. */
    public SideWrite progress(WatermarkTable table, Watermark watermark, Window window, String resumeKey, long rows) {
        return SideWrite.on(NAME, (c, d) -> upsert(c, table, watermark, window, resumeKey, rows));
    }

    /** Removes a table's row (start over with a full load). */
    public void reset(String table) throws SQLException {
        ensure();
        try (PreparedStatement ps = connection.prepareStatement("DELETE FROM " + q(NAME) + " WHERE " + q("table_name") + " = ?")) {
            ps.setString(1, table);
            ps.executeUpdate();
        }
        connection.commit();
    }

    private void upsert(Connection c, WatermarkTable table, Watermark watermark, Window window, String resumeKey, long rows)
            throws SQLException {
        String sql = dialect.upsert(NAME, COLUMNS, List.of("table_name"), COLUMNS.subList(1, COLUMNS.size()), null);
        CursorValue value = watermark == null ? null : watermark.primary();
        Object[] values = {
            table.name(), table.cursor().kind(), String.join(",", table.cursor().columns()),
            value instanceof CursorValue.Zoned z ? z.value() : null,
            value instanceof CursorValue.Local l ? l.value() : null,
            value instanceof CursorValue.Day day ? day.value() : null,
            value instanceof CursorValue.Number n ? n.value() : null,
            value instanceof CursorValue.Text x ? x.raw() : null,
            watermark == null ? null : watermark.tieBreak(),
            watermark == null ? null : watermark.render(),
            window == null ? null : window.serializeLower(),
            window == null ? null : window.upper().serialize(),
            resumeKey,
            window == null ? null : rows,
            dev.tidemark.jdbc.TemporalText.instant(Instant.now()),
        };
        ColumnType[] types = {TEXT, TEXT, TEXT, ZONED, LOCAL, DATE, BIGINT, TEXT, BIGINT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT};
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                dialect.bind(ps, i + 1, values[i], types[i]);
            }
            ps.executeUpdate();
        }
    }

    /**
     * Writes {@code value} into the column that would hold it, reads it back and rolls back: whether the control
     * table keeps this cursor value exactly (the precision probe).
     */
    Optional<String> roundTrip(CursorValue value) throws SQLException {
        ensure();
        String probe = "(tidemark precision probe)";
        WatermarkTable t = WatermarkTable.of(dev.tidemark.event.TableId.parse(probe), List.of("k"),
                value instanceof CursorValue.Number ? new Cursor.Id("c") : new Cursor.Timestamp("c"));
        try {
            upsert(connection, t, Watermark.of(value), null, null, 0);
            connection.commit();
            Watermark back = read(t.name()).map(State::watermark).orElse(null);
            if (back == null || !back.primary().equals(value)) {
                return Optional.of(back == null ? "nothing" : back.primary().serialize());
            }
            return Optional.empty();
        } finally {
            reset(t.name());
        }
    }

    static Instant instant(Object v) {
        if (v instanceof OffsetDateTime o) {
            return o.toInstant();
        }
        if (v instanceof Timestamp t) {
            return t.toInstant();
        }
        if (v instanceof Instant i) {
            return i;
        }
        String s = v.toString().trim().replace(' ', 'T');
        return s.endsWith("Z") ? Instant.parse(s) : OffsetDateTime.parse(s).toInstant();
    }

    static LocalDateTime local(Object v) {
        if (v instanceof LocalDateTime l) {
            return l;
        }
        if (v instanceof Timestamp t) {
            return t.toLocalDateTime();
        }
        return LocalDateTime.parse(v.toString().trim().replace(' ', 'T'));
    }

    static LocalDate date(Object v) {
        if (v instanceof LocalDate d) {
            return d;
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        return LocalDate.parse(v.toString().trim().substring(0, 10));
    }

    private String q(String identifier) {
        return dialect.quote(identifier);
    }
}
