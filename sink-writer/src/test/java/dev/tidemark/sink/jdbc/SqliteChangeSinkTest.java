package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.SinkException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JDBC apply side against a real SQLite file. */
class SqliteChangeSinkTest {
    @TempDir
    Path dir;
    String url;
    JdbcChangeSink sink;

    @BeforeEach
    void open() throws SQLException {
        url = "jdbc:sqlite:" + dir.resolve("t.db");
        sink = JdbcChangeSink.open(url, new Properties(), SinkOptions.defaults("p1"));
    }

    @AfterEach
    void close() {
        sink.close();
    }

    static RowSchema schema(String key, String... others) {
        List<Column> cols = new ArrayList<>();
        cols.add(new Column(key, ColumnType.of("int64"), false));
        for (String o : others) {
            cols.add(new Column(o, ColumnType.of("string"), true));
        }
        cols.add(new Column("amount", new ColumnType("bytes", ColumnType.DECIMAL, Map.of("scale", "6", "connect.decimal.precision", "20")), true));
        cols.add(new Column("at", new ColumnType("string", ColumnType.ZONED_TIMESTAMP, Map.of()), true));
        return new RowSchema(cols, List.of(key));
    }

    static ChangeEvent.Upsert upsert(TableId t, RowSchema s, long id, String v, long lsn) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put(s.keyColumns().get(0), id);
        for (Column c : s.columns()) {
            if (!row.containsKey(c.name())) {
                row.put(c.name(), switch (c.name()) {
                    case "amount" -> new BigDecimal("12345678901234.000001");
                    case "at" -> Instant.parse("2026-01-02T03:04:05.000007Z");
                    default -> v;
                });
            }
        }
        return new ChangeEvent.Upsert(t, Map.of(s.keyColumns().get(0), id), s, row, new SourcePosition.Lsn(lsn), ChangeEvent.Op.CREATE);
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private List<List<Object>> rows(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            List<List<Object>> out = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.add(rs.getObject(i));
                }
                out.add(row);
            }
            return out;
        }
    }

    @Test
    void aRetypedColumnTakesTheNewTypeWithTheFirstLaterRowAndAnEarlierRowArrivingAfterLeavesItAlone() throws SQLException {
        TableId t = new TableId("public", "retyped");
        RowSchema before = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false), new Column("k", ColumnType.of("int32"), true),
                new Column("v", ColumnType.of("string"), true)), List.of("id"));
        RowSchema after = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false), new Column("k", ColumnType.of("int16"), true),
                new Column("v", ColumnType.of("string"), true)), List.of("id"));
        sink.apply(List.of(row(t, before, 1, 10L, "a", 10), row(t, before, 2, 20L, "b", 11)), List.of());
        ChangeEvent.SchemaChange retype = new ChangeEvent.SchemaChange(t, new SourcePosition.Lsn(50),
                List.of(new ChangeEvent.ColumnChange.Retyped("k", "integer", "smallint")), "ALTER TABLE");
        assertThatThrownBy(() -> sink.apply(List.of(row(t, after, 1, 7L, "x", 60)), List.of())).isInstanceOf(SinkException.class)
                .hasMessageContaining("type change from int32 to int16 cannot be applied safely");

        sink.apply(List.of(retype, row(t, after, 1, 7L, "x", 60)), List.of());
        sink.apply(List.of(row(t, before, 2, 99L, "late", 40)), List.of()); // written before the change, arriving after it

        assertThat(rows("SELECT id, k, v FROM \"retyped\" ORDER BY id")).containsExactly(List.of(1, 7, "x"), List.of(2, 20, "late"));
        assertThat(rows("SELECT connect_type FROM tidemark_columns WHERE table_name = 'retyped' AND column_name = 'k'"))
                .containsExactly(List.of("int16"));
    }

    @Test
    void aRetypedKeyColumnTakesTheNewTypeWithItsValuesCastAndAnEarlierRowArrivingAfterIsLeftToTheSnapshot() throws SQLException {
        TableId t = new TableId("public", "retyped_key");
        RowSchema before = keyed(ColumnType.of("int64"));
        RowSchema after = keyed(new ColumnType("bytes", ColumnType.DECIMAL, Map.of("scale", "0", "connect.decimal.precision", "30")));
        sink.apply(List.of(keyRow(t, before, 1L, "a", 10), keyRow(t, before, 2L, "b", 11)), List.of());
        execute("CREATE INDEX \"retyped_key_v\" ON \"retyped_key\" (\"v\")"); // the user's own index: kept
        ChangeEvent.SchemaChange retype = new ChangeEvent.SchemaChange(t, new SourcePosition.Lsn(50),
                List.of(new ChangeEvent.ColumnChange.Retyped("id", "bigint", "numeric(30,0)")), "ALTER TABLE");

        sink.apply(List.of(retype, keyRow(t, after, new BigDecimal("1"), "x", 60)), List.of());
        sink.apply(List.of(keyRow(t, before, 2L, "late", 40)), List.of()); // written before the change, arriving after it

        assertThat(rows("SELECT id, typeof(id), v FROM \"retyped_key\" ORDER BY id"))
                .containsExactly(List.of("1", "text", "x"), List.of("2", "text", "b"));
        assertThat(rows("SELECT type, pk FROM pragma_table_info('retyped_key') WHERE name = 'id'")).containsExactly(List.of("DECIMAL_TEXT(30,0)", 1));
        assertThat(rows("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")).containsExactly(List.of("retyped_key_v"));
        assertThat(rows("SELECT connect_type, is_key FROM tidemark_columns WHERE table_name = 'retyped_key' AND column_name = 'id'"))
                .containsExactly(List.of("bytes", 1));
    }

    @Test
    void aRetypedKeyColumnWhoseValuesDoNotCastEmptiesTheTableForTheSnapshot() throws SQLException {
        TableId t = new TableId("public", "retyped_text_key");
        RowSchema before = keyed(ColumnType.of("string"));
        RowSchema after = keyed(ColumnType.of("int64"));
        sink.apply(List.of(keyRow(t, before, "a", "a", 10), keyRow(t, before, "b", "b", 11)), List.of());
        ChangeEvent.SchemaChange retype = new ChangeEvent.SchemaChange(t, new SourcePosition.Lsn(50),
                List.of(new ChangeEvent.ColumnChange.Retyped("id", "text", "bigint")), "ALTER TABLE USING length(id)");

        sink.apply(List.of(retype, keyRow(t, after, 5L, "five", 60)), List.of());

        assertThat(rows("SELECT id, typeof(id), v FROM \"retyped_text_key\"")).containsExactly(List.of(5, "integer", "five"));
        assertThat(rows("SELECT type FROM pragma_table_info('retyped_text_key') WHERE name = 'id'")).containsExactly(List.of("INTEGER"));
    }

    private static RowSchema keyed(ColumnType keyType) {
        return new RowSchema(List.of(new Column("id", keyType, false), new Column("v", ColumnType.of("string"), true)), List.of("id"));
    }

    private static ChangeEvent.Upsert keyRow(TableId t, RowSchema s, Object id, String v, long lsn) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", id);
        row.put("v", v);
        return new ChangeEvent.Upsert(t, Map.of("id", id), s, row, new SourcePosition.Lsn(lsn), ChangeEvent.Op.UPDATE);
    }

    private static ChangeEvent.Upsert row(TableId t, RowSchema s, long id, long k, String v, long lsn) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", id);
        row.put("k", k);
        row.put("v", v);
        return new ChangeEvent.Upsert(t, Map.of("id", id), s, row, new SourcePosition.Lsn(lsn), ChangeEvent.Op.UPDATE);
    }

    @Test
    void hostileIdentifiersRoundTrip() throws SQLException {
        for (String name : List.of("a\"b", "x; DROP TABLE y", "select", "Ünïcode")) {
            TableId t = new TableId("public", name);
            RowSchema s = schema(name + "_id", name + " col");
            sink.apply(List.of(upsert(t, s, 1, "v-" + name, 10)), List.of(new PartitionOffset("topic", 0, 1)));
            String q = "\"" + name.replace("\"", "\"\"") + "\"";
            assertThat(rows("SELECT \"" + (name + " col").replace("\"", "\"\"") + "\" FROM " + q)).containsExactly(List.of("v-" + name));
        }
    }

    @Test
    void exactValuesAreStoredAsText() throws SQLException {
        TableId t = new TableId("public", "orders");
        sink.apply(List.of(upsert(t, schema("id", "v"), 1, "x", 1)), List.of());
        assertThat(rows("SELECT amount, at, typeof(amount) FROM orders"))
                .containsExactly(List.of("12345678901234.000001", "2026-01-02T03:04:05.000007Z", "text"));
    }

    @Test
    void olderEventsNeverMoveARowBackwards() throws SQLException {
        TableId t = new TableId("public", "orders");
        RowSchema s = schema("id", "v");
        sink.apply(List.of(upsert(t, s, 1, "new", 20)), List.of(new PartitionOffset("tp", 0, 5)));
        // a replay delivers the older version and an older delete: neither applies
        sink.apply(List.of(upsert(t, s, 1, "old", 10)), List.of(new PartitionOffset("tp", 0, 6)));
        sink.apply(List.of(new ChangeEvent.Delete(t, Map.of("id", 1L), new SourcePosition.Lsn(15), false)), List.of(new PartitionOffset("tp", 0, 7)));
        assertThat(rows("SELECT v FROM orders")).containsExactly(List.of("new"));
        sink.apply(List.of(new ChangeEvent.Delete(t, Map.of("id", 1L), new SourcePosition.Lsn(25), false)), List.of(new PartitionOffset("tp", 0, 8)));
        assertThat(rows("SELECT v FROM orders")).isEmpty();
        assertThat(sink.storedOffsets()).isEqualTo(Map.of("tp", Map.of(0, 8L)));
    }

    @Test
    void aSnapshotSweepRemovesRowsOlderThanItsBeginningWithoutTruncatesEnabled() throws SQLException {
        TableId t = new TableId("public", "orders");
        RowSchema s = schema("id", "v");
        sink.apply(List.of(upsert(t, s, 1, "stale", 10), upsert(t, s, 2, "re-read", 11)), List.of(new PartitionOffset("tp", 0, 2)));
        // the snapshot began at 20: it re-read row 2 (and row 3, new), row 1 is gone from the source
        sink.apply(List.of(upsert(t, s, 2, "re-read", 30), upsert(t, s, 3, "new", 31), new ChangeEvent.Truncate(t, new SourcePosition.Lsn(20), true),
                upsert(t, s, 1, "older than the snapshot", 15)), List.of(new PartitionOffset("tp", 0, 6)));
        assertThat(rows("SELECT id, v FROM orders ORDER BY id")).containsExactly(List.of(2, "re-read"), List.of(3, "new"));
    }

    @Test
    void aFailedBatchLeavesNeitherChangesNorOffsets() throws SQLException {
        TableId t = new TableId("public", "orders");
        RowSchema s = schema("id", "v");
        sink.apply(List.of(upsert(t, s, 1, "a", 1)), List.of(new PartitionOffset("tp", 0, 1)));
        assertThatThrownBy(() -> sink.apply(List.of(upsert(t, s, 2, "b", 2), new ChangeEvent.Truncate(t, new SourcePosition.Lsn(3))),
                List.of(new PartitionOffset("tp", 0, 3))))
                .isInstanceOf(SinkException.class)
                .hasMessageContaining("table public.orders: truncate event");
        assertThat(rows("SELECT id FROM orders")).containsExactly(List.of(1));
        assertThat(sink.storedOffsets()).isEqualTo(Map.of("tp", Map.of(0, 1L)));
    }

    @Test
    void newColumnsAreAdded() throws SQLException {
        TableId t = new TableId("public", "orders");
        sink.apply(List.of(upsert(t, schema("id", "v"), 1, "a", 1)), List.of());
        sink.apply(List.of(upsert(t, schema("id", "v", "w"), 2, "b", 2)), List.of());
        assertThat(rows("SELECT id, v, w FROM orders ORDER BY id")).containsExactly(java.util.Arrays.asList(1, "a", null), List.of(2, "b", "b"));
    }

    @Test
    void unchangedToastPlaceholderIsNeverWritten() throws SQLException {
        TableId t = new TableId("public", "orders");
        RowSchema s = schema("id", "v", "big");
        sink.apply(List.of(upsert(t, s, 1, "a", 1)), List.of());
        ChangeEvent.Upsert u = upsert(t, s, 1, "b", 2);
        Map<String, Object> row = new LinkedHashMap<>(u.row());
        row.put("big", ChangeEvent.UNAVAILABLE);
        sink.apply(List.of(new ChangeEvent.Upsert(t, u.key(), s, row, u.position(), ChangeEvent.Op.UPDATE)), List.of());
        assertThat(rows("SELECT v, big FROM orders")).containsExactly(List.of("b", "a"));
    }
}
