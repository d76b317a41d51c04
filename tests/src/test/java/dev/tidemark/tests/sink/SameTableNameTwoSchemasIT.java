package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.SinkException;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.PartitionOffset;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.jdbc.TargetTableNames;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 11 item 5: {@code public.orders} and {@code sales.orders} both map to target table {@code orders} by default;
 * written together, rows with the same id would overwrite each other. A sink that receives events of both without a
 * mapping (topics of two pipelines, say) stops before writing the second, naming both and the {@code target.tables}
 * entry that parts them; given that mapping (issue 21 item 10) it writes each into its own target table, a truncate
 * and a column rename of one leaving the other alone. (A pipeline file capturing both without the mapping is refused at config time:
 * {@code TargetTablesSectionTest}, {@code TopicNamingIT}.)
 */
class SameTableNameTwoSchemasIT {
    static final RowSchema S = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false),
            new Column("note", ColumnType.of("string"), true)), List.of("id"));

    TargetDatabase target;
    JdbcChangeSink sink;

    @BeforeEach
    void open() throws Exception {
        target = TargetDatabase.sqlite();
        sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults("schemas"));
    }

    @AfterEach
    void close() throws Exception {
        sink.close();
        target.close();
    }

    private static ChangeEvent upsert(TableId table, long id, String note, long lsn) {
        return new ChangeEvent.Upsert(table, Map.of("id", id), S, Map.of("id", id, "note", note), new SourcePosition.Lsn(lsn),
                ChangeEvent.Op.CREATE);
    }

    private List<String> rows(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = target.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1) + "|" + rs.getString(2));
            }
        }
        return out;
    }

    private List<String> notes(String table) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = target.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT note FROM \"" + table + "\" ORDER BY note")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void aSinkGivenTwoSchemasTablesOfOneNameRefusesTheSecondInsteadOfMergingThem() throws Exception {
        TableId pub = new TableId("public", "orders");
        TableId sales = new TableId("sales", "orders");
        sink.apply(List.of(upsert(pub, 1, "public order 1", 1)), List.of(new PartitionOffset("app.public.orders", 0, 1)));
        assertThatThrownBy(() -> sink.apply(List.of(upsert(sales, 1, "sales order 1", 2)),
                List.of(new PartitionOffset("app.sales.orders", 0, 1))))
                .isInstanceOf(SinkException.class)
                .hasMessageContaining("public.orders")
                .hasMessageContaining("sales.orders")
                .hasMessageContaining("target table orders")
                .hasMessageContaining("add target.tables: {sales.orders: sales_orders}")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(notes("orders")).containsExactly("public order 1");
        assertThat(sink.storedOffsets()).isEqualTo(Map.of("app.public.orders", Map.of(0, 1L)));
    }

    @Test
    void aSinkGivenTheMappingWritesEachTableIntoItsOwnTargetTableTruncatesAndSchemaChangesIncluded() throws Exception {
        TableId pub = new TableId("public", "orders");
        TableId sales = new TableId("sales", "orders");
        try (JdbcChangeSink mapped = JdbcChangeSink.open(target.jdbcUrl(), target.properties(),
                new SinkOptions("mapped", SinkOptions.DEFAULT_POSITION_COLUMN, true).withTargetTables(new TargetTableNames(Map.of(sales, "sales_orders"))))) {
            mapped.apply(List.of(upsert(pub, 1, "public order 1", 1), upsert(sales, 1, "sales order 1", 2),
                    new ChangeEvent.Truncate(sales, new SourcePosition.Lsn(3)), upsert(sales, 2, "sales order 2", 4)),
                    List.of(new PartitionOffset("app.orders", 0, 4)));
            RowSchema renamed = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false),
                    new Column("remark", ColumnType.of("string"), true)), List.of("id"));
            mapped.apply(List.of(new ChangeEvent.SchemaChange(sales, new SourcePosition.Lsn(5),
                            List.of(new ChangeEvent.ColumnChange.Renamed("note", "remark")), "ALTER TABLE sales.orders RENAME note TO remark"),
                    new ChangeEvent.Upsert(sales, Map.of("id", 3L), renamed, Map.of("id", 3L, "remark", "sales order 3"),
                            new SourcePosition.Lsn(6), ChangeEvent.Op.CREATE)), List.of(new PartitionOffset("app.orders", 0, 6)));
        }
        assertThat(notes("orders")).containsExactly("public order 1");
        assertThat(rows("SELECT id, remark FROM sales_orders ORDER BY id")).containsExactly("2|sales order 2", "3|sales order 3");
    }
}
