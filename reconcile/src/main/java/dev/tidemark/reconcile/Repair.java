package dev.tidemark.reconcile;

import dev.tidemark.jdbc.Database;
import dev.tidemark.jdbc.Databases;

import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Dialect;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.jdbc.TargetConnection;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Turns a reconcile's differences into change events and applies them to the target through the sink writer — the
 * same idempotent, position-guarded path as CDC and watermark mode: upserts ({@code op} r) of the source's current
 * rows for missing and changed keys, deletes for surplus keys.
 *
 * <p>Positions (the sink skips an event older than the row's stored position): a repair of a key the target holds
 * (changed, surplus, or soft-deleted) carries {@link SourcePosition.After} the stored position, so it wins over the
 * stale row and over a replay of the event that wrote it, while any later source event still wins over the repair.
 * A repair of a key the target does not hold carries no position, so every later event applies over it. Repairs
 * therefore never block the pipeline's own events; the price is that a pending event older than the row the repair
 * read can briefly move the row back until the next event for that key (or the next reconcile) — never lose one.
 *
 * <p>Every key is re-read on the source when its batch is applied (CDC goes on between the reconcile and the repair):
 * a key listed missing or changed that the source no longer has is not upserted, and a key listed surplus that the
 * source has again is not deleted; the pipeline's own events for those keys settle them.
 *
 * <p>Safety: {@link #plan} describes what would be done (a dry run); {@link #apply} refuses to delete more than
 * {@code maxDeleteShare} of the target's rows unless forced (a wrong target URL or table must not be emptied).
 */
public final class Repair {
    private static final int BATCH = 500;

    private Repair() {
    }

    /**
     * What a repair of {@code result} would do.
     *
     * @param upserts    keys to upsert from the source (missing and changed)
     * @param deletes    keys to delete from the target (surplus)
     * @param targetRows live target rows when reconciled, the basis of the delete share
     * @param unlisted   differences beyond the key limit, which this repair leaves for a next run
     */
    public record Plan(String table, String targetTable, List<RowKey> upserts, List<RowKey> deletes, long targetRows, long unlisted) {
        public Plan {
            upserts = List.copyOf(upserts);
            deletes = List.copyOf(deletes);
        }

        /** Deletes as a share of the target's rows (1 when the target is empty and something would be deleted). */
        public double deleteShare() {
            return targetRows == 0 ? (deletes.isEmpty() ? 0 : 1) : deletes.size() / (double) targetRows;
        }

        public boolean empty() {
            return upserts.isEmpty() && deletes.isEmpty();
        }

        /** One paragraph: counts, and up to {@code shown} keys of each kind. */
        public String describe(int shown) {
            return String.format(Locale.ROOT, "repair %s → %s: upsert %d row(s) from the source%s, delete %d row(s) from the target%s "
                            + "(%.1f%% of its %,d rows)%s", table, targetTable, upserts.size(), ReconcileReport.keys(upserts, shown),
                    deletes.size(), ReconcileReport.keys(deletes, shown), deleteShare() * 100, targetRows,
                    unlisted > 0 ? "; " + unlisted + " more differences beyond the key limit need another run" : "");
        }
    }

    /**
     * What an applied repair did: rows upserted and deleted; keys skipped because the source no longer has them
     * ({@code vanished}, listed missing or changed) or has them again ({@code reappeared}, listed surplus) when the
     * repair read it — their own change events, on their way to the target, settle them.
     */
    public record Outcome(long upserted, long deleted, long vanished, long reappeared) {
        static final Outcome NONE = new Outcome(0, 0, 0, 0);

        Outcome plus(Outcome o) {
            return new Outcome(upserted + o.upserted, deleted + o.deleted, vanished + o.vanished, reappeared + o.reappeared);
        }
    }

    /** The repair was refused: it would delete too much of the target. */
    public static final class RefusedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RefusedException(String message) {
            super(message);
        }
    }

    public static Plan plan(ReconcileResult r) {
        List<RowKey> upserts = new ArrayList<>(r.missingKeys());
        upserts.addAll(r.changedKeys());
        long unlisted = r.missingCount() + r.surplusCount() + r.changedCount()
                - r.missingKeys().size() - r.surplusKeys().size() - r.changedKeys().size();
        return new Plan(r.table(), r.targetTable(), upserts, r.surplusKeys(), r.targetRows(), unlisted);
    }

    /**
     * Applies {@code plan} to the target of {@code request}.
     *
     * @param maxDeleteShare most deletes allowed, as a share of the target's rows (0.1 = 10%)
     * @param force          apply even when the deletes exceed {@code maxDeleteShare}
     * @throws RefusedException when the deletes exceed the share and {@code force} is false; nothing was changed
     */
    public static Outcome apply(ReconcileRequest request, Plan plan, double maxDeleteShare, boolean force) throws SQLException {
        if (!force && plan.deleteShare() > maxDeleteShare) {
            throw new RefusedException(String.format(Locale.ROOT, "refusing to delete %d of the %,d rows of target table %s (%.1f%%, more "
                            + "than the allowed %.1f%%): check that %s is the right target, then repeat with --force",
                    plan.deletes().size(), plan.targetRows(), plan.targetTable(), plan.deleteShare() * 100, maxDeleteShare * 100,
                    UrlMask.mask(request.target().jdbcUrl())));
        }
        if (plan.empty()) {
            return Outcome.NONE;
        }
        Database srcEngine = Databases.forUrl(request.source().jdbcUrl());
        Database tgtEngine = Databases.forUrl(request.target().jdbcUrl());
        try (Held src = Held.source(request.source()); Held tgt = Held.target(request.target())) {
            TableShape shape = TableShape.resolve(request, src.connection, srcEngine, tgt.connection, tgtEngine);
            RowSchema schema = schema(shape, RepairReads.recordedTypes(tgt.connection, tgtEngine, shape.targetTable()));
            Batches batches = new Batches(src.connection, srcEngine, tgt.connection, tgtEngine, shape, schema, request.positionColumn(),
                    new TableId(shape.source().id().schema(), shape.targetTable()));
            try (JdbcChangeSink sink = sink(request, tgt.connection, options(request, shape))) {
                Outcome upserted = inBatches(plan.upserts(), keys -> batches.upsert(sink, keys));
                return upserted.plus(inBatches(plan.deletes(), keys -> batches.delete(sink, keys)));
            }
        }
    }

    private static SinkOptions options(ReconcileRequest request, TableShape shape) {
        return new SinkOptions("reconcile", request.positionColumn(), false,
                shape.targetDeleted() != null ? SinkOptions.DeleteMode.SOFT : SinkOptions.DeleteMode.HARD);
    }

    /** One step of a repair over a batch of at most {@value #BATCH} keys. */
    private interface Step {
        Outcome apply(List<RowKey> keys) throws SQLException;
    }

    private static Outcome inBatches(List<RowKey> keys, Step step) throws SQLException {
        Outcome done = Outcome.NONE;
        for (int from = 0; from < keys.size(); from += BATCH) {
            done = done.plus(step.apply(keys.subList(from, Math.min(keys.size(), from + BATCH))));
        }
        return done;
    }

    /**
     * One side's connection for the length of a repair. Closing it closes a connection the repair opened; a caller's
     * connection stays open and gets its auto-commit setting back (an open transaction on the target is rolled back;
     * on the source only when its auto-commit setting was changed).
     */
    private static final class Held implements AutoCloseable {
        final Connection connection;
        private final boolean owned;
        private final boolean target;
        private final boolean autoCommit;

        private Held(Connection connection, boolean owned, boolean target) throws SQLException {
            this.connection = connection;
            this.owned = owned;
            this.target = target;
            this.autoCommit = connection.getAutoCommit();
        }

        static Held source(ReconcileRequest.Endpoint e) throws SQLException {
            return held(e, false);
        }

        static Held target(ReconcileRequest.Endpoint e) throws SQLException {
            return held(e, true);
        }

        private static Held held(ReconcileRequest.Endpoint e, boolean target) throws SQLException {
            Connection c = e.open();
            try {
                return new Held(c, e.owned(), target);
            } catch (SQLException | RuntimeException ex) {
                if (e.owned()) {
                    c.close();
                }
                throw ex;
            }
        }

        @Override
        public void close() throws SQLException {
            if (owned) {
                connection.close();
            } else if (target) {
                if (!connection.getAutoCommit()) {
                    connection.rollback();
                }
                connection.setAutoCommit(autoCommit);
            } else if (connection.getAutoCommit() != autoCommit) {
                connection.rollback();
                connection.setAutoCommit(autoCommit);
            }
        }
    }

    /**
     * One batch of keys at a time, each re-read on the source after its stored position was read on the target: a
     * source change committed before that source read is seen (and the key upserted as it now is, or skipped), one
     * committed after it carries a position later than the stored one and wins over the repair.
     */
    private record Batches(Connection src, Database srcEngine, Connection tgt, Database tgtEngine, TableShape shape, RowSchema schema,
                           String positionColumn, TableId eventTable) {
        /** Upserts the source's current rows of {@code keys}; keys the source no longer has are skipped (vanished). */
        Outcome upsert(JdbcChangeSink sink, List<RowKey> keys) throws SQLException {
            Map<RowKey, String> stored = RepairReads.storedPositions(tgt, tgtEngine, shape, positionColumn, keys);
            List<ChangeEvent> events = new ArrayList<>();
            for (Map<String, Object> row : RepairReads.sourceRows(src, srcEngine, shape, keys)) {
                RowKey key = keyOf(shape, row);
                Map<String, Object> keyMap = new LinkedHashMap<>();
                shape.keyColumns().forEach(k -> keyMap.put(k, row.get(k)));
                events.add(new ChangeEvent.Upsert(eventTable, keyMap, schema, row, after(stored.get(key)), ChangeEvent.Op.READ));
            }
            return new Outcome(sink.apply(events, List.of()).upserts(), 0, keys.size() - events.size(), 0);
        }

        /** Deletes {@code keys} from the target; keys the source has again are skipped (reappeared). */
        Outcome delete(JdbcChangeSink sink, List<RowKey> keys) throws SQLException {
            Map<RowKey, String> stored = RepairReads.storedPositions(tgt, tgtEngine, shape, positionColumn, keys);
            Set<RowKey> present = new HashSet<>();
            for (Map<String, Object> row : RepairReads.sourceRows(src, srcEngine, shape, keys)) {
                present.add(keyOf(shape, row));
            }
            List<ChangeEvent> events = new ArrayList<>();
            for (RowKey key : keys) {
                if (!present.contains(key)) {
                    events.add(new ChangeEvent.Delete(eventTable, typedKey(shape, key), after(stored.get(key)), false));
                }
            }
            return new Outcome(0, sink.apply(events, List.of()).deletes(), 0, keys.size() - events.size());
        }
    }

    private static SourcePosition after(String stored) {
        return stored == null || stored.isEmpty() ? new SourcePosition.Unknown() : new SourcePosition.After(SourcePosition.decode(stored));
    }

    /**
     * The sink on the target: its own connection for a URL endpoint; for a caller's connection, that connection
     * borrowed (the sink never closes nor replaces it: the caller owns it).
     */
    private static JdbcChangeSink sink(ReconcileRequest request, Connection tgt, SinkOptions options) throws SQLException {
        Dialect dialect = Databases.targetForUrl(request.target().jdbcUrl());
        if (request.target().owned()) {
            Properties p = dialect.connectionDefaults();
            p.putAll(request.target().properties());
            return new JdbcChangeSink(new TargetConnection.Owned(request.target().jdbcUrl(), p), dialect, options);
        }
        return new JdbcChangeSink(new TargetConnection.Borrowed(tgt), dialect, options);
    }

    /**
     * The event schema of the repaired columns: each column's type as the sink recorded it when it created the target
     * column ({@value SinkOptions#COLUMNS_TABLE}), else as the source declares it — so a repair never makes the sink
     * alter a target column.
     */
    private static RowSchema schema(TableShape shape, Map<String, ColumnType> recorded) {
        List<Column> cols = new ArrayList<>();
        for (TableShape.Compared c : shape.columns()) {
            ColumnType t = recorded.getOrDefault(c.targetName(), c.sourceColumn().type());
            cols.add(new Column(c.name(), t, !shape.keyColumns().contains(c.name())));
        }
        return new RowSchema(cols, shape.keyColumns());
    }

    private static RowKey keyOf(TableShape shape, Map<String, Object> row) {
        List<String> key = new ArrayList<>();
        for (int i : shape.keyIndex()) {
            TableShape.Compared c = shape.columns().get(i);
            key.add(CanonicalValues.ofText(CanonicalValues.canonical(row.get(c.name()), c.kind()), c.kind()));
        }
        return new RowKey(key);
    }

    /** A key as event values (for a delete): parsed from canonical text by the key column's kind. */
    private static Map<String, Object> typedKey(TableShape shape, RowKey key) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < shape.keyIndex().length; i++) {
            TableShape.Compared c = shape.columns().get(shape.keyIndex()[i]);
            out.put(c.name(), KeyQuery.eventValue(c.kind(), key.values().get(i)));
        }
        return out;
    }
}
