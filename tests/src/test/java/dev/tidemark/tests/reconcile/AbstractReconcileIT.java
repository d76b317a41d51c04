package dev.tidemark.tests.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.reconcile.ReconcileRequest;
import dev.tidemark.reconcile.ReconcileResult;
import dev.tidemark.reconcile.Reconciler;
import dev.tidemark.reconcile.Repair;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.tests.sink.TargetDatabase;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reconcile and repair on one pair of engines, written once and bound to each pair by a subclass. The source table
 * ({@code numeric(20,8)}, microsecond timestamps, booleans, Unicode text, NULLs and empty strings) is created and
 * filled by the test; the target is written through the sink writer, as a pipeline would, with planted
 * differences of every class: missing, surplus, and changed — including a decimal differing only at the 7th
 * decimal place, a timestamp differing by one microsecond, NULL against an empty string, a flipped boolean and one
 * changed character. Counts agree (40 = 40) while the tables differ.
 */
abstract class AbstractReconcileIT {
    static final int ROWS = 40;
    static final String TABLE = "items";

    TargetDatabase sourceDb;
    TargetDatabase targetDb;
    List<Rows.Row> rows;

    abstract Side source();

    abstract Side target();

    @BeforeEach
    void createDatabases() throws Exception {
        sourceDb = source().newDatabase();
        targetDb = target().newDatabase();
        rows = Rows.generate(ROWS, source().zoned());
        try (Connection c = sourceDb.connect(); Statement s = c.createStatement()) {
            s.execute(source().sourceDdl(TABLE));
            source().insert(c, TABLE, rows, false);
        }
    }

    @AfterEach
    void dropDatabases() throws Exception {
        if (sourceDb != null) {
            sourceDb.close();
        }
        if (targetDb != null) {
            targetDb.close();
        }
    }

    TableId sourceTable() {
        return source() == Side.POSTGRESQL ? new TableId("public", TABLE) : new TableId("", TABLE);
    }

    ReconcileRequest request() {
        return ReconcileRequest.of(ReconcileRequest.Endpoint.of(sourceDb.jdbcUrl(), sourceDb.properties()), sourceTable(),
                ReconcileRequest.Endpoint.of(targetDb.jdbcUrl(), targetDb.properties()), TABLE).withSettle(Duration.ZERO);
    }

    /** Writes {@code rows} to the target through the sink writer (table created by the sink, positions recorded). */
    void writeTarget(List<Rows.Row> targetRows, SinkOptions options) throws Exception {
        List<ChangeEvent> events = new ArrayList<>();
        long lsn = 1000;
        for (Rows.Row r : targetRows) {
            events.add(Rows.upsert(TABLE, r, source().zoned(), lsn++));
        }
        try (JdbcChangeSink sink = JdbcChangeSink.open(targetDb.jdbcUrl(), targetDb.properties(), options)) {
            sink.apply(events, List.of());
        }
    }

    void writeTarget(List<Rows.Row> targetRows) throws Exception {
        writeTarget(targetRows, SinkOptions.defaults("it"));
    }

    Rows.Row row(long id) {
        return rows.get((int) id - 1);
    }

    Object oneMicroLater(Object t) {
        return t instanceof Instant i ? i.plusNanos(1_000) : ((LocalDateTime) t).plusNanos(1_000);
    }

    /** The planted target: 5 and 17 missing; 41 and 42 surplus; 7, 9, 12, 13, 15 changed. */
    List<Rows.Row> plantedTarget() {
        List<Rows.Row> target = new ArrayList<>();
        for (Rows.Row r : rows) {
            Rows.Row t = switch ((int) r.id()) {
                case 5, 17 -> null;
                case 7 -> r.withAmount(r.amount().add(new BigDecimal("0.0000001"))); // differs at the 7th decimal place only
                case 9 -> r.withHappened(oneMicroLater(r.happened()));
                case 12 -> r.withNote(""); // the source has NULL
                case 13 -> r.withFlag(!r.flag());
                case 15 -> r.withLabel(r.label().replace("ü", "u"));
                default -> r;
            };
            if (t != null) {
                target.add(t);
            }
        }
        target.add(row(1).withId(41));
        target.add(row(2).withId(42));
        return target;
    }

    @Test
    void plantedDifferencesOfEachClassAreReportedByKeyWhileCountsAgree() throws Exception {
        assertThat(row(12).note()).as("row 12's note").isNull();
        writeTarget(plantedTarget());

        for (int segmentRows : new int[] {ReconcileRequest.DEFAULT_SEGMENT_ROWS, 4, 2}) {
            ReconcileResult r = Reconciler.reconcile(request().withSegmentRows(segmentRows));
            assertThat(r.sourceRows()).as("source rows").isEqualTo(ROWS);
            assertThat(r.targetRows()).as("target rows: the count matches although the tables differ").isEqualTo(ROWS);
            assertThat(r.missing()).as("missing with %d-row segments", segmentRows).containsExactly("5", "17");
            assertThat(r.surplus()).as("surplus with %d-row segments", segmentRows).containsExactly("41", "42");
            assertThat(r.changed()).as("changed with %d-row segments", segmentRows).containsExactly("7", "9", "12", "13", "15");
            assertThat(r.equal()).isFalse();
            assertThat(r.complete()).isTrue();
            assertThat(r.keyColumns()).containsExactly("id");
            assertThat(r.stats().fetchedSegments()).as("only segments with differences are compared row by row").isBetween(1L, 9L);
        }

        ReconcileResult excluded = Reconciler.reconcile(request().withExcludedColumns(Set.of("note", "flag")));
        assertThat(excluded.changed()).as("changed when note and flag are not compared").containsExactly("7", "9", "15");
        assertThat(excluded.method()).isEqualTo(inDatabase() ? "in-database" : "streamed");

        // one far outlier key on both sides: the 40 rows crowd one segment, which in-database checksums bisect
        Rows.Row outlier = row(3).withId(1_000_000_000L);
        try (Connection c = sourceDb.connect()) {
            source().insert(c, TABLE, List.of(outlier), false);
        }
        List<Rows.Row> withOutlier = new ArrayList<>(plantedTarget());
        withOutlier.add(outlier);
        writeTarget(withOutlier);
        ReconcileResult skewed = Reconciler.reconcile(request().withSegmentRows(4));
        assertThat(skewed.missing()).containsExactly("5", "17");
        assertThat(skewed.surplus()).containsExactly("41", "42");
        assertThat(skewed.changed()).containsExactly("7", "9", "12", "13", "15");
        if (inDatabase()) {
            assertThat(skewed.stats().bisected()).as("segments bisected").isPositive();
        }
    }

    /** Whether both engines checksum segments in SQL. */
    boolean inDatabase() {
        return source() != Side.SQLITE && target() != Side.SQLITE;
    }

    /**
     * Rows 31, 32 and 34 hold tab, newline, backslash and the separator characters, which send the SQLite scan to its
     * per-column path; without them every reader takes its fast path, which must agree across engines just the same.
     */
    @Test
    void fastPathsAgreeWhenNoTextHoldsASeparator() throws Exception {
        try (Connection c = sourceDb.connect(); PreparedStatement ps = c.prepareStatement("UPDATE " + TABLE + " SET note = ? WHERE id = ?")) {
            for (int id : new int[] {31, 32, 34}) {
                ps.setString(1, "plain " + id);
                ps.setLong(2, id);
                ps.executeUpdate();
                rows.set(id - 1, row(id).withNote("plain " + id));
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
        writeTarget(rows);
        ReconcileResult equal = Reconciler.reconcile(request());
        assertThat(equal.equal()).as("equal: %s", equal).isTrue();
        assertThat(equal.stats().fetchedSegments()).isZero();

        try (JdbcChangeSink sink = JdbcChangeSink.open(targetDb.jdbcUrl(), targetDb.properties(), SinkOptions.defaults("it"))) {
            sink.apply(List.of(Rows.upsert(TABLE, row(9).withHappened(oneMicroLater(row(9).happened())), source().zoned(), 99_000),
                    new ChangeEvent.Delete(new TableId("", TABLE), Map.of("id", 17L), new SourcePosition.Lsn(99_001), false)), List.of());
        }
        for (int segmentRows : new int[] {ReconcileRequest.DEFAULT_SEGMENT_ROWS, 4}) {
            ReconcileResult r = Reconciler.reconcile(request().withSegmentRows(segmentRows));
            assertThat(r.missing()).containsExactly("17");
            assertThat(r.changed()).containsExactly("9");
            assertThat(r.surplus()).isEmpty();
        }
    }

    @Test
    void equalTablesInAnotherRepresentationReportNoDifferences() throws Exception {
        // a hand-made target: other decimal scale, other zone, other text shapes, plus a position column
        try (Connection c = targetDb.connect(); Statement s = c.createStatement()) {
            s.execute(target().variantDdl(TABLE, source().zoned()));
            target().insert(c, TABLE, rows, true);
        }
        ReconcileResult r = Reconciler.reconcile(request().withSegmentRows(4));
        assertThat(r.equal()).as("equal: %s", r).isTrue();
        assertThat(r.stats().fetchedSegments()).as("segments compared row by row: the checksums agree everywhere").isZero();
        assertThat(r.sourceRows()).isEqualTo(ROWS);
        assertThat(r.targetRows()).isEqualTo(ROWS);
    }

    @Test
    void softDeletedTargetRowsCountAsAbsent() throws Exception {
        SinkOptions soft = new SinkOptions("it", SinkOptions.DEFAULT_POSITION_COLUMN, false, SinkOptions.DeleteMode.SOFT);
        writeTarget(rows, soft);
        try (JdbcChangeSink sink = JdbcChangeSink.open(targetDb.jdbcUrl(), targetDb.properties(), soft)) {
            sink.apply(List.of(new ChangeEvent.Delete(new TableId("", TABLE), Map.of("id", 3L), new SourcePosition.Lsn(5000), false)),
                    List.of());
        }
        ReconcileResult r = Reconciler.reconcile(request());
        assertThat(r.missing()).as("a soft-deleted row is absent").containsExactly("3");
        assertThat(r.targetRows()).isEqualTo(ROWS - 1);
        assertThat(r.surplus()).isEmpty();
        assertThat(r.changed()).isEmpty();
    }

    @Test
    void aChangeThatReachesTheTargetWithinTheSettleIntervalIsNotReported() throws Exception {
        writeTarget(rows);
        Rows.Row twenty = row(20).withAmount(new BigDecimal("999.00000001"));
        Rows.Row twentyOne = row(21).withAmount(new BigDecimal("888.00000001"));
        try (Connection c = sourceDb.connect()) {
            updateAmount(c, twenty);
            updateAmount(c, twentyOne);
        }
        List<Integer> seen = new ArrayList<>();
        ReconcileResult r = Reconciler.reconcile(request().withListener(new ReconcileRequest.Listener() {
            @Override
            public void scanned(int differences) {
                seen.add(differences);
                // between the scan and the re-check, the pipeline delivers row 20 (but not 21)
                try (JdbcChangeSink sink = JdbcChangeSink.open(targetDb.jdbcUrl(), targetDb.properties(), SinkOptions.defaults("it"))) {
                    sink.apply(List.of(Rows.upsert(TABLE, twenty, source().zoned(), 9000)), List.of());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }));
        assertThat(seen).as("differences found by the scan").containsExactly(2);
        assertThat(r.changed()).as("only the change still on its way after the settle interval").containsExactly("21");
        assertThat(r.rechecked()).isEqualTo(2);
        assertThat(r.settledAway()).isEqualTo(1);
        assertThat(r.sourcePosition()).startsWith(source() == Side.POSTGRESQL ? "lsn:" : "time:");
    }

    private void updateAmount(Connection c, Rows.Row r) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + TABLE + " SET amount = ? WHERE id = ?")) {
            if (source() == Side.SQLITE) {
                ps.setString(1, r.amount().toPlainString());
            } else {
                ps.setBigDecimal(1, r.amount());
            }
            ps.setLong(2, r.id());
            ps.executeUpdate();
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }

    @Test
    void repairTurnsDifferencesIntoEventsThroughTheSinkAndEndsEqual() throws Exception {
        writeTarget(plantedTarget());
        ReconcileResult before = Reconciler.reconcile(request());
        Repair.Plan plan = Repair.plan(before);
        assertThat(plan.upserts()).extracting(Object::toString).containsExactly("5", "17", "7", "9", "12", "13", "15");
        assertThat(plan.deletes()).extracting(Object::toString).containsExactly("41", "42");
        assertThat(plan.deleteShare()).isEqualTo(2.0 / ROWS);

        // the dry run (planning) changed nothing
        assertThat(Reconciler.reconcile(request()).missing()).containsExactly("5", "17");

        Repair.Outcome done = Repair.apply(request(), plan, 0.10, false);
        assertThat(done.upserted()).isEqualTo(7);
        assertThat(done.deleted()).isEqualTo(2);

        ReconcileResult after = Reconciler.reconcile(request().withSegmentRows(4));
        assertThat(after.equal()).as("after the repair: %s", after).isTrue();
        assertThat(after.targetRows()).isEqualTo(ROWS);
    }

    @Test
    void repairDoesNotDeleteASurplusKeyTheSourceReinsertedAndCdcAppliedSinceTheReconcile() throws Exception {
        List<Rows.Row> target = new ArrayList<>(rows);
        Rows.Row back = row(3).withId(41);
        target.add(back);
        writeTarget(target);
        Repair.Plan plan = Repair.plan(Reconciler.reconcile(request()));
        assertThat(plan.deletes()).extracting(Object::toString).containsExactly("41");

        try (Connection c = sourceDb.connect()) {
            source().insert(c, TABLE, List.of(back), false);
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
        try (JdbcChangeSink sink = JdbcChangeSink.open(targetDb.jdbcUrl(), targetDb.properties(), SinkOptions.defaults("it"))) {
            sink.apply(List.of(Rows.upsert(TABLE, back, source().zoned(), 99_000)), List.of());
        }

        Repair.Outcome done = Repair.apply(request(), plan, 0.10, false);
        assertThat(done.deleted()).as("deleted").isZero();
        assertThat(done.reappeared()).as("back in the source, not deleted").isEqualTo(1);
        ReconcileResult after = Reconciler.reconcile(request());
        assertThat(after.equal()).as("row 41 kept, target equal to the source: %s", after).isTrue();
        assertThat(after.targetRows()).isEqualTo(ROWS + 1);
    }

    @Test
    void repairRefusesToDeleteMoreThanTheAllowedShareWithoutForce() throws Exception {
        List<Rows.Row> target = new ArrayList<>(rows);
        for (int i = 101; i <= 110; i++) {
            target.add(row(1).withId(i));
        }
        writeTarget(target);
        Repair.Plan plan = Repair.plan(Reconciler.reconcile(request()));
        assertThat(plan.deletes()).hasSize(10);
        assertThat(plan.deleteShare()).isEqualTo(10.0 / 50);

        assertThatThrownBy(() -> Repair.apply(request(), plan, 0.10, false))
                .isInstanceOf(Repair.RefusedException.class)
                .hasMessageContaining("refusing to delete 10 of the 50 rows of target table items")
                .hasMessageContaining("--force");
        assertThat(Reconciler.reconcile(request()).surplusCount()).as("nothing deleted after the refusal").isEqualTo(10);

        Repair.apply(request(), plan, 0.10, true);
        assertThat(Reconciler.reconcile(request()).equal()).as("equal after the forced repair").isTrue();
    }
}
