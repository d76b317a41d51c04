package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.reconcile.CanonicalValues;
import dev.tidemark.jdbc.ValueKind;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.PartitionOffset;
import dev.tidemark.jdbc.SinkException;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sink's semantics, written once and bound to each target database by a small subclass: exact types, hostile
 * identifiers, per-key collapsing, monotonic apply, atomic offsets, schema evolution, unchanged-TOAST placeholders.
 */
abstract class AbstractSinkSemanticsIT {
    static final TableId T = new TableId("public", "items");
    TargetDatabase target;
    JdbcChangeSink sink;

    abstract TargetDatabase target() throws Exception;

    @BeforeEach
    void open() throws Exception {
        target = target();
        sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults("semantics"));
    }

    @AfterEach
    void close() throws Exception {
        if (sink != null) {
            sink.close();
        }
        if (target != null) {
            target.close();
        }
    }

    String q(String identifier) {
        return target.quotes().quote(identifier);
    }

    /** Rows of {@code table} ordered by its first column, values canonicalised by the given kinds. */
    List<List<String>> rows(String table, List<String> columns, List<ValueKind> kinds) throws Exception {
        String sql = "SELECT " + String.join(", ", columns.stream().map(this::q).toList()) + " FROM " + q(table) + " ORDER BY 1";
        List<List<String>> out = new ArrayList<>();
        try (Connection c = target.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 0; i < columns.size(); i++) {
                    row.add(CanonicalValues.read(rs, i + 1, kinds.get(i)));
                }
                out.add(row);
            }
        }
        return out;
    }

    List<List<String>> idAndLabel(String table) throws Exception {
        return rows(table, List.of("id", "label"), List.of(ValueKind.INTEGER, ValueKind.TEXT));
    }

    @Test
    void exactTypesRoundTrip() throws Exception {
        RowSchema s = SinkEvents.wide("id");
        Map<String, Object> nulls = new LinkedHashMap<>();
        s.columns().forEach(c -> nulls.put(c.name(), null));
        nulls.put("id", 2L);
        sink.apply(List.of(SinkEvents.upsert(T, s, 1, "it's \"quoted\" — Zoë 株式会社 🚀", 10), SinkEvents.upsert(T, s, nulls, 11)), List.of());
        List<String> cols = List.of("id", "price", "ratio", "happened", "local_ts", "day", "at_time", "flag", "payload", "label");
        List<ValueKind> kinds = List.of(ValueKind.INTEGER, ValueKind.DECIMAL, ValueKind.FLOAT, ValueKind.TIMESTAMPTZ, ValueKind.TIMESTAMP,
                ValueKind.DATE, ValueKind.TIME, ValueKind.BOOLEAN, ValueKind.BYTES, ValueKind.TEXT);
        List<List<String>> rows = rows("items", cols, kinds);
        assertThat(rows.get(0)).containsExactly("1", "12345678901235.123456", "0.1", "2026-07-01T00:00:00.000001Z",
                "2026-03-01T10:16:30.654321", "2026-03-02", "13:14:15.123456", "false", "00ff01", "it's \"quoted\" — Zoë 株式会社 🚀");
        assertThat(rows.get(1).subList(1, 10)).allMatch(v -> v.equals("\u0000NULL"));
    }

    @Test
    void hostileIdentifiersRoundTrip() throws Exception {
        for (String name : List.of("a\"b", "x; DROP TABLE y", "select", "Ünïcode", "back`tick")) {
            TableId t = new TableId("public", name);
            RowSchema s = SinkEvents.wide("id", name + " col");
            Map<String, Object> row = SinkEvents.row(s, 1, "v");
            row.put(name + " col", "value of " + name);
            sink.apply(List.of(SinkEvents.upsert(t, s, row, 1)), List.of(new PartitionOffset("topic " + name, 0, 1)));
            assertThat(rows(name, List.of(name + " col"), List.of(ValueKind.TEXT))).containsExactly(List.of("value of " + name));
        }
        assertThat(sink.storedOffsets()).containsKeys("topic a\"b", "topic x; DROP TABLE y", "topic back`tick");
    }

    @Test
    void oneBatchUpdateDeleteInsertOfAKeyEndsAsTheInsert() throws Exception {
        RowSchema s = SinkEvents.wide("id");
        sink.apply(List.of(SinkEvents.upsert(T, s, 1, "first", 1), SinkEvents.upsert(T, s, 2, "two", 2)), List.of());
        sink.apply(List.of(SinkEvents.upsert(T, s, 1, "updated", 3), SinkEvents.delete(T, s, 1, 4), SinkEvents.upsert(T, s, 1, "reinserted", 5),
                SinkEvents.upsert(T, s, 3, "three", 6), SinkEvents.upsert(T, s, 3, "three again", 7), SinkEvents.delete(T, s, 2, 8)), List.of());
        assertThat(idAndLabel("items")).containsExactly(List.of("1", "reinserted"), List.of("3", "three again"));
    }

    @Test
    void olderEventsNeverMoveARowBackwards() throws Exception {
        RowSchema s = SinkEvents.wide("id");
        sink.apply(List.of(SinkEvents.upsert(T, s, 1, "new", 20), SinkEvents.upsert(T, s, 2, "two", 21)), List.of());
        sink.apply(List.of(SinkEvents.upsert(T, s, 1, "old", 10), SinkEvents.delete(T, s, 2, 15)), List.of());
        assertThat(idAndLabel("items")).containsExactly(List.of("1", "new"), List.of("2", "two"));
        sink.apply(List.of(SinkEvents.delete(T, s, 2, 30), SinkEvents.upsert(T, s, 1, "newest", 0x1_0000_0000L)), List.of());
        assertThat(idAndLabel("items")).containsExactly(List.of("1", "newest"));
    }

    @Test
    void aFailedBatchLeavesNeitherChangesNorOffsets() throws Exception {
        RowSchema s = SinkEvents.wide("id");
        sink.apply(List.of(SinkEvents.upsert(T, s, 1, "a", 1)), List.of(new PartitionOffset("tp", 0, 1)));
        assertThatThrownBy(() -> sink.apply(List.of(SinkEvents.upsert(T, s, 2, "b", 2), new ChangeEvent.Truncate(T, new SourcePosition.Lsn(3))),
                List.of(new PartitionOffset("tp", 0, 3))))
                .isInstanceOf(SinkException.class)
                .hasMessageContaining("table public.items: truncate event");
        assertThat(idAndLabel("items")).containsExactly(List.of("1", "a"));
        assertThat(sink.storedOffsets()).isEqualTo(Map.of("tp", Map.of(0, 1L)));
    }

    @Test
    void aBatchFailingAfterItsDdlLeavesTheSnapshotMarkWhereItWas() throws Exception {
        RowSchema s = SinkEvents.wide("id");
        sink.apply(List.of(snapshotRow(s, SinkEvents.row(s, 1, "a"), 100)), List.of(new PartitionOffset("tp", 0, 1)));
        assertThat(snapshotAt("items")).isEqualTo(snapshotPosition(100));
        rejectKey("items", 999);

        // a wider schema: the sink adds the column (DDL, committed on its own) before the batch, which then fails on 999
        RowSchema wider = SinkEvents.wide("id", "note");
        assertThatThrownBy(() -> sink.apply(List.of(snapshotRow(wider, SinkEvents.row(wider, 2, "b"), 200),
                snapshotRow(wider, SinkEvents.row(wider, 999, "rejected"), 200)), List.of(new PartitionOffset("tp", 0, 3))))
                .isInstanceOf(SinkException.class);

        assertThat(snapshotAt("items")).as("tidemark_table_positions.snapshot_at after the rolled-back batch").isEqualTo(snapshotPosition(100));
        assertThat(idAndLabel("items")).containsExactly(List.of("1", "a"));
        assertThat(sink.storedOffsets()).isEqualTo(Map.of("tp", Map.of(0, 1L)));

        sink.apply(List.of(snapshotRow(wider, SinkEvents.row(wider, 2, "b"), 200)), List.of(new PartitionOffset("tp", 0, 3)));
        assertThat(snapshotAt("items")).as("raised with the batch that commits").isEqualTo(snapshotPosition(200));
    }

    private static ChangeEvent.Upsert snapshotRow(RowSchema s, Map<String, Object> row, long snapshotLsn) {
        return new ChangeEvent.Upsert(T, Map.of("id", row.get("id")), s, row,
                new SourcePosition.Wal(snapshotLsn, SourcePosition.Phase.SNAPSHOT, 0), ChangeEvent.Op.READ);
    }

    private static String snapshotPosition(long snapshotLsn) {
        return new SourcePosition.Wal(snapshotLsn, SourcePosition.Phase.SNAPSHOT, 0).encode();
    }

    private String snapshotAt(String table) throws Exception {
        try (Connection c = target.connect(); java.sql.PreparedStatement ps = c.prepareStatement("SELECT " + q("snapshot_at") + " FROM "
                + q("tidemark_table_positions") + " WHERE " + q("table_name") + " = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** Makes the target reject the row with key {@code id} of {@code table} (a trigger on SQLite, a check constraint elsewhere). */
    private void rejectKey(String table, long id) throws Exception {
        String sql = target.name().equals("sqlite")
                ? "CREATE TRIGGER " + q("reject_" + id) + " BEFORE INSERT ON " + q(table) + " WHEN NEW." + q("id") + " = " + id
                + " BEGIN SELECT RAISE(ABORT, 'rejected by the test'); END"
                : "ALTER TABLE " + q(table) + " ADD CONSTRAINT " + q("reject_" + id) + " CHECK (" + q("id") + " <> " + id + ")";
        try (Connection c = target.connect(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    @Test
    void columnsThatAppearLaterAreAdded() throws Exception {
        sink.apply(List.of(SinkEvents.upsert(T, SinkEvents.wide("id"), 1, "a", 1)), List.of());
        RowSchema wider = SinkEvents.wide("id", "note");
        Map<String, Object> row = SinkEvents.row(wider, 2, "b");
        row.put("note", "new column");
        sink.apply(List.of(SinkEvents.upsert(T, wider, row, 2)), List.of());
        assertThat(rows("items", List.of("id", "note"), List.of(ValueKind.INTEGER, ValueKind.TEXT)))
                .containsExactly(List.of("1", "\u0000NULL"), List.of("2", "new column"));
    }

    @Test
    void unchangedToastPlaceholderIsNeverWritten() throws Exception {
        RowSchema s = SinkEvents.wide("id", "big");
        Map<String, Object> row = SinkEvents.row(s, 1, "a");
        row.put("big", "a large value");
        sink.apply(List.of(SinkEvents.upsert(T, s, row, 1)), List.of());
        Map<String, Object> update = SinkEvents.row(s, 1, "b");
        update.put("big", ChangeEvent.UNAVAILABLE);
        sink.apply(List.of(SinkEvents.upsert(T, s, update, 2)), List.of());
        assertThat(rows("items", List.of("label", "big"), List.of(ValueKind.TEXT, ValueKind.TEXT)))
                .containsExactly(List.of("b", "a large value"));
    }

    private JdbcChangeSink openSink(SinkOptions options) throws Exception {
        return JdbcChangeSink.open(target.jdbcUrl(), target.properties(), options);
    }

    @Test
    void softDeletesKeepTheKeySoAReplayCannotResurrectIt() throws Exception {
        sink.close();
        sink = openSink(new SinkOptions("soft", SinkOptions.DEFAULT_POSITION_COLUMN, false, SinkOptions.DeleteMode.SOFT));
        RowSchema s = SinkEvents.wide("id");
        sink.apply(List.of(SinkEvents.upsert(T, s, 1, "one", 10), SinkEvents.upsert(T, s, 2, "two", 11)), List.of());
        sink.apply(List.of(SinkEvents.delete(T, s, 1, 20), SinkEvents.delete(T, s, 3, 21)), List.of());
        // replay of the original inserts: refused by the delete's newer position
        sink.apply(List.of(SinkEvents.upsert(T, s, 1, "one", 10), SinkEvents.upsert(T, s, 3, "three", 12)), List.of());
        List<String> cols = List.of("id", "label", SinkOptions.DELETED_COLUMN);
        List<ValueKind> kinds = List.of(ValueKind.INTEGER, ValueKind.TEXT, ValueKind.BOOLEAN);
        assertThat(rows("items", cols, kinds)).containsExactly(List.of("1", "one", "true"), List.of("2", "two", "false"),
                List.of("3", "\u0000NULL", "true"));
        // a newer insert of a deleted key brings it back
        sink.apply(List.of(SinkEvents.upsert(T, s, 1, "back", 30)), List.of());
        assertThat(rows("items", cols, kinds).get(0)).containsExactly("1", "back", "false");
    }

    @Test
    void truncateEmptiesTheTableWhenEnabled() throws Exception {
        sink.close();
        sink = openSink(new SinkOptions("trunc", SinkOptions.DEFAULT_POSITION_COLUMN, true));
        RowSchema s = SinkEvents.wide("id");
        sink.apply(List.of(SinkEvents.upsert(T, s, 1, "a", 1), SinkEvents.upsert(T, s, 2, "b", 2), new ChangeEvent.Truncate(T, new SourcePosition.Lsn(3)),
                SinkEvents.upsert(T, s, 3, "c", 4)), List.of(new PartitionOffset("tp", 0, 4)));
        assertThat(idAndLabel("items")).containsExactly(List.of("3", "c"));
    }

    @Test
    void aRetypedKeyColumnWhoseValuesDoNotCastEmptiesTheTableAndTakesTheNewType() throws Exception {
        dev.tidemark.event.Column label = new dev.tidemark.event.Column("label", dev.tidemark.event.ColumnType.of("string"), true);
        RowSchema text = new RowSchema(List.of(new dev.tidemark.event.Column("id", dev.tidemark.event.ColumnType.of("string"), false), label),
                List.of("id"));
        RowSchema bigint = new RowSchema(List.of(new dev.tidemark.event.Column("id", dev.tidemark.event.ColumnType.of("int64"), false), label),
                List.of("id"));
        sink.apply(List.of(SinkEvents.upsert(T, text, Map.of("id", "a", "label", "x"), 1), SinkEvents.upsert(T, text, Map.of("id", "b", "label", "y"), 2)),
                List.of());
        ChangeEvent.SchemaChange retype = new ChangeEvent.SchemaChange(T, new SourcePosition.Lsn(5),
                List.of(new ChangeEvent.ColumnChange.Retyped("id", "text", "bigint")), "ALTER TABLE items ALTER COLUMN id TYPE bigint USING length(id)");

        sink.apply(List.of(retype, SinkEvents.upsert(T, bigint, Map.of("id", 7L, "label", "seven"), 6)), List.of());
        sink.apply(List.of(SinkEvents.upsert(T, bigint, Map.of("id", 7L, "label", "seven again"), 7)), List.of());

        assertThat(idAndLabel("items")).as("the rows whose key did not cast are deleted; the snapshot brings them back")
                .containsExactly(List.of("7", "seven again"));
    }

    @Test
    void wideningIsAppliedNarrowingAndKeyChangesAreRefused() throws Exception {
        RowSchema narrow = new RowSchema(List.of(new dev.tidemark.event.Column("id", dev.tidemark.event.ColumnType.of("int64"), false),
                new dev.tidemark.event.Column("qty", dev.tidemark.event.ColumnType.of("int32"), true),
                new dev.tidemark.event.Column("amount", new dev.tidemark.event.ColumnType("bytes", dev.tidemark.event.ColumnType.DECIMAL,
                        Map.of("scale", "2", "connect.decimal.precision", "6")), true)), List.of("id"));
        RowSchema wider = new RowSchema(List.of(narrow.columns().get(0),
                new dev.tidemark.event.Column("qty", dev.tidemark.event.ColumnType.of("int64"), true),
                new dev.tidemark.event.Column("amount", new dev.tidemark.event.ColumnType("bytes", dev.tidemark.event.ColumnType.DECIMAL,
                        Map.of("scale", "3", "connect.decimal.precision", "12")), true)), List.of("id"));
        sink.apply(List.of(SinkEvents.upsert(T, narrow, Map.of("id", 1L, "qty", 5L, "amount", new java.math.BigDecimal("1234.56")), 1)), List.of());
        sink.apply(List.of(SinkEvents.upsert(T, wider, Map.of("id", 2L, "qty", 5_000_000_000L, "amount", new java.math.BigDecimal("123456789.123")), 2)), List.of());
        assertThat(rows("items", List.of("id", "qty", "amount"), List.of(ValueKind.INTEGER, ValueKind.INTEGER, ValueKind.DECIMAL)))
                .containsExactly(List.of("1", "5", "1234.56"), List.of("2", "5000000000", "123456789.123"));

        assertThatThrownBy(() -> sink.apply(List.of(SinkEvents.upsert(T, narrow, Map.of("id", 3L, "qty", 1L, "amount", new java.math.BigDecimal("1.00")), 3)),
                List.of(new PartitionOffset("tp", 0, 9))))
                .isInstanceOf(SinkException.class)
                .hasMessageContaining("table items column qty: type change from int64 to int32");
        RowSchema rekeyed = new RowSchema(wider.columns(), List.of("id", "qty"));
        assertThatThrownBy(() -> sink.apply(List.of(SinkEvents.upsert(T, rekeyed, Map.of("id", 4L, "qty", 1L, "amount", new java.math.BigDecimal("1.000")), 4)),
                List.of()))
                .isInstanceOf(SinkException.class)
                .hasMessageContaining("table items: primary key changed from [id] to [id, qty]");
        assertThat(sink.storedOffsets()).isEmpty();
    }
}
