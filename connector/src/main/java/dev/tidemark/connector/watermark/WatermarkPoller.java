package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.Durations;

import dev.tidemark.jdbc.ColumnKind;
import dev.tidemark.jdbc.CursorValue;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.SourceSql;
import dev.tidemark.jdbc.SourceTable;
import dev.tidemark.jdbc.TextTime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeDecoder;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.sink.jdbc.SideWrite;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watermark run of one table, the recipe step by step:
 * <ol>
 *   <li>read the stored watermark from the control table (a window left unfinished by a stop is resumed as it was);</li>
 *   <li>read the new upper bound <em>first</em>: {@code MAX(cursor)} (and the largest tie-break id at it), lowered to
 *       the database clock minus the settle delay; rows committed from now on lie above it and wait for the next run;</li>
 *   <li>copy the rows with {@code watermark − overlap < cursor <= upper} in chunks paged by key, each chunk delivered
 *       together with a control write recording progress (direct mode: in the same target transaction);</li>
 *   <li>the last chunk's control write stores the upper bound as the new watermark. A failure before leaves the old
 *       watermark (or the last progress), and the next run retries the rest of the window.</li>
 * </ol>
 * Then the run is recorded in the run history and compared with recent runs. Not thread-safe: one poller per
 * thread; the caller owns the connections and the delivery.
 */
public final class WatermarkPoller {
    private static final Logger log = LoggerFactory.getLogger(WatermarkPoller.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Connection source;
    private final SourceSql sql;
    private final ControlTable control;
    private final RunHistory history;
    private final Delivery delivery;
    private final TargetPositions targetPositions;
    private final PrintStream progressOut;

    /**
     * @param source          the source connection (autocommit on: every chunk reads the latest committed rows)
     * @param targetPositions lateness lookups in the target (direct mode), or null
     * @param progressOut     where the first load's progress bar goes, or null for none
     */
    public WatermarkPoller(Connection source, String sourceUrl, ControlTable control, RunHistory history, Delivery delivery,
                           TargetPositions targetPositions, PrintStream progressOut) {
        this.source = source;
        this.sql = SourceSql.forUrl(sourceUrl);
        this.control = control;
        this.history = history;
        this.delivery = delivery;
        this.targetPositions = targetPositions;
        this.progressOut = progressOut;
    }

    /**
     * What to run.
     *
     * @param windowStart tumbling window start (inclusive) as text in the cursor's type, or null
     * @param windowEnd   tumbling window end (exclusive), or null
     * @param probes      run the safety probes even when a watermark exists
     * @param stop        asked between chunks; true stops after the chunk just committed
     */
    public record Request(String windowStart, String windowEnd, boolean probes, BooleanSupplier stop) {
        public static Request incremental() {
            return new Request(null, null, false, () -> false);
        }

        public static Request window(String start, String end) {
            return new Request(start, end, false, () -> false);
        }

        public Request stoppingWhen(BooleanSupplier s) {
            return new Request(windowStart, windowEnd, probes, s);
        }

        public Request withProbes() {
            return new Request(windowStart, windowEnd, true, stop);
        }
    }

    public RunResult run(WatermarkTable t, Request request) throws Exception {
        long t0 = System.nanoTime();
        String startedAt = RunHistory.now();
        SourceTable src = SourceTable.describe(source, sql, t.table());
        List<String> keys = t.keyColumns().isEmpty() ? src.primaryKey() : t.keyColumns();
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("table " + t.table() + " has no primary key: give the key columns (--key)");
        }
        keys.forEach(k -> src.require(k, "key"));
        SourceColumn primary = src.require(t.cursor().primaryColumn(), "cursor");
        if (t.cursor() instanceof Cursor.Id ? primary.kind() != ColumnKind.INTEGER : !primary.kind().temporal()) {
            throw new IllegalArgumentException("table " + t.table() + ": cursor column " + primary.name() + " is "
                    + primary.declaredType() + ", which cannot be a " + t.cursor().kind() + " cursor"
                    + (primary.kind() == ColumnKind.INTEGER ? " (use --cursor-kind id)" : ""));
        }
        if (t.cursor() instanceof Cursor.TimestampId ti && src.require(ti.idColumn(), "tie-break id").kind() != ColumnKind.INTEGER) {
            throw new IllegalArgumentException("table " + t.table() + ": tie-break column " + ti.idColumn() + " must be an integer");
        }
        if (t.softDeleteColumn() != null) {
            src.require(t.softDeleteColumn(), "soft-delete flag");
        }
        RowSchema schema = src.schema(keys);
        List<String> warnings = new ArrayList<>();

        if (request.windowStart() != null || request.windowEnd() != null) {
            if (request.windowStart() == null || request.windowEnd() == null) {
                throw new IllegalArgumentException("a tumbling window needs both --window-start and --window-end");
            }
            CursorValue sample = maxCursorValue(src, primary);
            Window w = Window.tumbling(Watermark.of(parseBound(request.windowStart(), primary, sample)),
                    Watermark.of(parseBound(request.windowEnd(), primary, sample)));
            if (w.lower().compareTo(w.upper()) >= 0) {
                throw new IllegalArgumentException("window start " + request.windowStart() + " is not before window end " + request.windowEnd());
            }
            Copy copy = copy(t, src, keys, schema, primary, w, null, null, 0, null, "window", request);
            return finish(t, "window", w, copy, null, warnings, startedAt, t0);
        }

        Optional<ControlTable.State> state = control.read(t.name());
        if (state.isPresent() && (!state.get().cursorKind().equals(t.cursor().kind())
                || !state.get().cursorColumns().equals(String.join(",", t.cursor().columns())))) {
            throw new IllegalArgumentException("table " + t.table() + ": " + ControlTable.NAME + " holds a " + state.get().cursorKind()
                    + " watermark on " + state.get().cursorColumns() + " but the settings say " + t.cursor().kind() + " on "
                    + String.join(",", t.cursor().columns()) + "; delete its row from " + ControlTable.NAME + " to start over");
        }
        Watermark watermark = state.map(ControlTable.State::watermark).orElse(null);
        ControlTable.InProgress unfinished = state.map(ControlTable.State::inProgress).orElse(null);
        if (unfinished != null) {
            List<Object> resume = decodeKey(unfinished.resumeKey(), schema);
            log.info("{}: resuming window {} after key {} ({} rows already committed)", t.name(), unfinished.window().describe(),
                    resume, unfinished.rows());
            Copy copy = copy(t, src, keys, schema, primary, unfinished.window(), resume, watermark, unfinished.rows(),
                    unfinished.window().upper(), watermark == null ? "initial" : "resumed", request);
            return finish(t, "resumed", unfinished.window(), copy, copy.complete ? unfinished.window().upper() : watermark,
                    warnings, startedAt, t0);
        }

        CursorValue max = maxCursorValue(src, primary);
        if (watermark == null || request.probes()) {
            for (SafetyProbes.Warning w : new SafetyProbes(source, sql, src, t).run(control, max)) {
                log.warn("{}", w.format());
                warnings.add(w.format());
            }
        }
        Watermark upper = upperBound(t, src, max);
        if (upper == null && watermark == null) {
            Copy none = new Copy(0, 0, 0, null, 0, true);
            return finish(t, "initial", null, none, null, warnings, startedAt, t0);
        }
        if (watermark != null && (upper == null || upper.compareTo(watermark) < 0)) {
            upper = watermark;
        }
        Watermark lower = watermark == null ? null : lowered(t, watermark);
        if (watermark != null && lower.equals(watermark) && upper.compareTo(watermark) <= 0) {
            // nothing above the watermark and no overlap to re-read: two index lookups, no window read
            return finish(t, "unchanged", Window.incremental(lower, upper), new Copy(0, 0, 0, null, 0, true), watermark,
                    warnings, startedAt, t0);
        }
        Window w = Window.incremental(lower, upper);
        String mode = watermark == null ? "initial" : "incremental";
        Copy copy = copy(t, src, keys, schema, primary, w, null, watermark, 0, upper, mode, request);
        return finish(t, mode, w, copy, copy.complete ? upper : watermark, warnings, startedAt, t0);
    }

    /** The outcome of copying (part of) a window. */
    private record Copy(long rows, long deletes, long lateRows, String maxLateness, long chunks, boolean complete) {
    }

    private Copy copy(WatermarkTable t, SourceTable src, List<String> keys, RowSchema schema, SourceColumn primary,
                      Window window, List<Object> resume, Watermark previous, long rowsBefore, Watermark newWatermark,
                      String mode, Request request) throws Exception {
        WindowQuery query = new WindowQuery(sql, src, keys, t.cursor(), window);
        boolean tumbling = newWatermark == null;
        ProgressBar bar = null;
        if (progressOut != null && (mode.equals("initial") || mode.equals("window"))) {
            long total;
            try (PreparedStatement ps = query.prepareCount(source); ResultSet rs = ps.executeQuery()) {
                rs.next();
                total = rs.getLong(1);
            }
            if (total > t.chunkSize()) {
                bar = new ProgressBar(progressOut, t.name(), total + rowsBefore);
            }
        }
        int primaryIndex = src.columns().indexOf(primary) + 1;
        String tieColumn = t.cursor() instanceof Cursor.TimestampId ti ? ti.idColumn() : null;
        long rows = rowsBefore;
        long copied = 0;
        long deletes = 0;
        long late = 0;
        Duration maxLate = null;
        long maxLateIds = -1;
        long chunks = 0;
        while (true) {
            List<ChangeEvent> events = new ArrayList<>();
            List<ChangeEvent.Upsert> overlapRows = new ArrayList<>();
            List<Watermark> overlapPositions = new ArrayList<>();
            List<Object> lastKey = null;
            int n = 0;
            try (PreparedStatement ps = query.prepareChunk(source, resume, t.chunkSize()); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    n++;
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 0; i < src.columns().size(); i++) {
                        SourceColumn c = src.columns().get(i);
                        try {
                            row.put(c.name(), sql.read(rs, i + 1, c));
                        } catch (RuntimeException | SQLException e) {
                            throw new IllegalStateException("table " + t.table() + " column " + c.name() + " (" + c.declaredType()
                                    + ") after key " + lastKey + ": cannot read value: " + e.getMessage(), e);
                        }
                    }
                    Map<String, Object> key = new LinkedHashMap<>();
                    for (String k : keys) {
                        Object v = row.get(k);
                        if (v == null) {
                            throw new IllegalStateException("table " + t.table() + ": key column " + k + " is NULL in a row with cursor "
                                    + rs.getString(primaryIndex) + "; rows need a non-null key to be upserted");
                        }
                        key.put(k, v);
                    }
                    CursorValue m = sql.readCursorValue(rs, primaryIndex, primary.kind());
                    Watermark pos = new Watermark(m, tieColumn == null ? null : (Long) row.get(tieColumn));
                    SourcePosition position = new SourcePosition.Watermark(pos.render());
                    if (t.softDeleteColumn() != null && truthy(row.get(t.softDeleteColumn()))) {
                        events.add(new ChangeEvent.Delete(t.table(), key, position, false));
                        deletes++;
                    } else {
                        ChangeEvent.Upsert u = new ChangeEvent.Upsert(t.table(), key, schema, row, position, ChangeEvent.Op.READ);
                        events.add(u);
                        if (previous != null && targetPositions != null && !tumbling && pos.compareTo(previous) <= 0) {
                            overlapRows.add(u);
                            overlapPositions.add(pos);
                        }
                    }
                    lastKey = new ArrayList<>(key.values());
                }
            }
            for (int i = 0; i < overlapRows.size(); i++) {
                ChangeEvent.Upsert u = overlapRows.get(i);
                Optional<SourcePosition> stored = targetPositions.position(u.table().table(), u.key(), schema);
                if (stored.isEmpty() || stored.get().compareTo(u.position()) < 0) {
                    late++;
                    Optional<Duration> d = previous.primary().durationAbove(overlapPositions.get(i).primary());
                    if (d.isPresent()) {
                        maxLate = maxLate == null || d.get().compareTo(maxLate) > 0 ? d.get() : maxLate;
                    } else if (previous.primary() instanceof CursorValue.Number p) {
                        maxLateIds = Math.max(maxLateIds, p.value() - ((CursorValue.Number) overlapPositions.get(i).primary()).value());
                    }
                }
            }
            boolean last = n < t.chunkSize();
            SideWrite write = tumbling ? SideWrite.NONE
                    : last ? control.complete(t, newWatermark)
                    : control.progress(t, previous, window, encodeKey(lastKey, schema, keys), rows + n);
            delivery.deliver(events, schema, write);
            rows += n;
            copied += n;
            chunks++;
            if (bar != null) {
                bar.update(rows);
            }
            if (last) {
                break;
            }
            resume = lastKey;
            if (request.stop().getAsBoolean()) {
                if (bar != null) {
                    bar.finish(rows);
                }
                log.info("{}: stop requested; window {} committed up to key {} ({} rows)", t.name(), window.describe(), lastKey, rows);
                return new Copy(copied, deletes, late, lateness(maxLate, maxLateIds), chunks, false);
            }
        }
        if (bar != null) {
            bar.finish(rows);
        }
        return new Copy(copied, deletes, late, lateness(maxLate, maxLateIds), chunks, true);
    }

    private static String lateness(Duration d, long ids) {
        if (d != null) {
            return Durations.format(d);
        }
        return ids >= 0 ? ids + " ids" : null;
    }

    private RunResult finish(WatermarkTable t, String mode, Window w, Copy copy, Watermark watermark, List<String> warnings,
                             String startedAt, long t0) throws SQLException {
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        if (copy.lateRows > 0) {
            String current = t.cursor() instanceof Cursor.Id ? t.idOverlap() + " ids" : Durations.format(t.overlap());
            String msg = "table " + t.table() + ": observed lateness: " + copy.lateRows + " row" + (copy.lateRows == 1 ? " was" : "s were")
                    + " first seen below the previous watermark (inside the overlap), up to " + copy.maxLateness
                    + " late; an overlap of at least " + copy.maxLateness + " catches rows that late (current overlap " + current
                    + "); rows later than the overlap are never seen: run reconcile to find them";
            log.warn(msg);
            warnings.add(msg);
        }
        String status = copy.complete ? "complete" : "stopped";
        if (mode.equals("incremental") || mode.equals("unchanged")) {
            List<Long> recent = history.recentIncrementalRows(t.name());
            RunHistory.anomaly(t.name(), copy.rows, recent).ifPresent(a -> {
                log.warn(a);
                warnings.add(a);
            });
        }
        String window = w == null ? "(empty table)" : w.describe();
        history.record(new RunHistory.Run(t.name(), startedAt, mode.equals("unchanged") ? "incremental" : mode, status,
                w == null || w.lower() == null ? null : w.lower().toString(), w == null ? null : w.upper().toString(),
                copy.rows, copy.deletes, copy.lateRows, copy.maxLateness, copy.chunks, took.toMillis(),
                warnings.isEmpty() ? null : String.join("\n", warnings)));
        RunResult r = new RunResult(t.name(), mode, status, window, copy.rows, copy.deletes, copy.lateRows, copy.maxLateness,
                copy.chunks, took, watermark, warnings);
        log.info("watermark {} via {}", r.summary(), delivery.describe());
        return r;
    }

    private CursorValue maxCursorValue(SourceTable src, SourceColumn primary) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement(WindowQuery.maxSql(sql, src, primary.name()));
             ResultSet rs = ps.executeQuery()) {
            return rs.next() ? sql.readCursorValue(rs, 1, primary.kind()) : null;
        }
    }

    /** The window's upper bound: MAX(cursor) (with the largest id there), no closer to now than the settle delay. */
    private Watermark upperBound(WatermarkTable t, SourceTable src, CursorValue max) throws SQLException {
        if (max == null) {
            return null;
        }
        Watermark upper = Watermark.of(max);
        if (t.cursor() instanceof Cursor.TimestampId ti) {
            try (PreparedStatement ps = source.prepareStatement(WindowQuery.maxIdAtSql(sql, src, ti))) {
                sql.bindCursorValue(ps, 1, max);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    long id = rs.getLong(1);
                    upper = rs.wasNull() ? upper : new Watermark(max, id);
                }
            }
        }
        if (!(t.cursor() instanceof Cursor.Id) && !t.settle().isZero()) {
            CursorValue settled = sql.clockMinus(source, max, t.settle());
            if (settled.compareTo(max) < 0) {
                upper = Watermark.of(settled);
            }
        }
        return upper;
    }

    private static Watermark lowered(WatermarkTable t, Watermark watermark) {
        if (t.cursor() instanceof Cursor.Id) {
            return t.idOverlap() == 0 ? watermark : Watermark.of(((CursorValue.Number) watermark.primary()).minus(t.idOverlap()));
        }
        return t.overlap().isZero() ? watermark : Watermark.of(watermark.primary().minus(t.overlap()));
    }

    /** A window bound given as text, as a value of the cursor column's kind (SQLite text in the column's shape). */
    private CursorValue parseBound(String text, SourceColumn column, CursorValue sample) {
        if (column.kind() == ColumnKind.INTEGER) {
            try {
                return new CursorValue.Number(Long.parseLong(text.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("window bound '" + text + "' is not an id (cursor " + column.name() + " is an integer)");
            }
        }
        TextTime parsed = TextTime.parse(text).orElseThrow(() -> new IllegalArgumentException("window bound '" + text
                + "' is not a date or date-time (e.g. 2013-01-01, 2013-01-01T12:00:00, 2013-01-01T12:00:00Z)"));
        Temporal v = parsed.value();
        if (sql instanceof SourceSql.Sqlite) {
            return sample instanceof CursorValue.Text s && TextTime.parse(s.raw()).isPresent()
                    ? new CursorValue.Text(TextTime.format(v, TextTime.parse(s.raw()).get().shape())) : new CursorValue.Text(text);
        }
        return switch (column.kind()) {
            case ZONED -> new CursorValue.Zoned(v instanceof Instant i ? i : v instanceof LocalDateTime l ? l.toInstant(ZoneOffset.UTC)
                    : ((LocalDate) v).atStartOfDay().toInstant(ZoneOffset.UTC));
            case LOCAL -> new CursorValue.Local(v instanceof LocalDateTime l ? l : v instanceof LocalDate d ? d.atStartOfDay()
                    : LocalDateTime.ofInstant((Instant) v, ZoneOffset.UTC));
            case DATE -> new CursorValue.Day(v instanceof LocalDate d ? d : v instanceof LocalDateTime l ? l.toLocalDate()
                    : LocalDateTime.ofInstant((Instant) v, ZoneOffset.UTC).toLocalDate());
            default -> throw new IllegalArgumentException("cursor " + column.name() + " cannot bound a window");
        };
    }

    private static boolean truthy(Object v) {
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number n) {
            return n.doubleValue() != 0;
        }
        String s = v.toString().trim();
        return s.equalsIgnoreCase("true") || s.equalsIgnoreCase("t") || s.equalsIgnoreCase("y") || s.equalsIgnoreCase("yes") || s.equals("1");
    }

    private static String encodeKey(List<Object> key, RowSchema schema, List<String> keys) {
        ArrayNode a = JSON.createArrayNode();
        for (int i = 0; i < keys.size(); i++) {
            a.add(EnvelopeEncoder.encodeValue(schema.column(keys.get(i)).orElseThrow().type(), key.get(i)));
        }
        return a.toString();
    }

    private static List<Object> decodeKey(String json, RowSchema schema) throws java.io.IOException {
        if (json == null) {
            return null;
        }
        JsonNode a = JSON.readTree(json);
        EnvelopeDecoder decoder = new EnvelopeDecoder();
        List<Object> key = new ArrayList<>();
        for (int i = 0; i < schema.keyColumns().size(); i++) {
            key.add(decoder.decodeValue(schema.column(schema.keyColumns().get(i)).orElseThrow().type(), a.get(i)));
        }
        return key;
    }
}
