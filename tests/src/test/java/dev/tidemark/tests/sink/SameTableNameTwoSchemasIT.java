package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.connector.config.ConfigException;
import dev.tidemark.connector.config.PipelineConfigParser;
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
import java.nio.file.Path;
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
 * Issue 11 item 5: {@code public.orders} and {@code sales.orders} both map to target table {@code orders}; written
 * together, rows with the same id would overwrite each other. A pipeline that captures both is refused at config
 * time naming both tables; a sink that receives events of both anyway (topics of two pipelines, say) stops before
 * writing the second, naming both, instead of merging them.
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

    private List<String> notes() throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = target.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT note FROM orders ORDER BY note")) {
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
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(notes()).containsExactly("public order 1");
        assertThat(sink.storedOffsets()).isEqualTo(Map.of("app.public.orders", Map.of(0, 1L)));
    }

    @Test
    void aPipelineCapturingTwoSchemasTablesOfOneNameIsRefusedAtConfigTime() {
        String yaml = """
                name: app
                source:
                  url: jdbc:postgresql://127.0.0.1:5432/app
                  tables: [public.orders, public.customers, sales.orders]
                kafka:
                  bootstrapServers: 127.0.0.1:9092
                target:
                  url: jdbc:sqlite:replica.db
                """;
        assertThatThrownBy(() -> PipelineConfigParser.parse(yaml, "app.yaml", Path.of("."), k -> null))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("source.tables")
                .hasMessageContaining("public.orders")
                .hasMessageContaining("sales.orders")
                .hasMessageContaining("target table orders");
    }
}
