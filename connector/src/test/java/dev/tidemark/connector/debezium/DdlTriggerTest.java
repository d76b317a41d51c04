package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DdlTriggerTest {
    private static PipelineConfig config(String name, TableId... tables) {
        return new PipelineConfig(name,
                new SourceConfig("jdbc:postgresql://127.0.0.1:5432/db", "app", Secret.empty(), "slot", "pub", List.of(tables), true,
                        Duration.ofMillis(10)),
                new KafkaConfig("127.0.0.1:9092", name, 2, (short) 1, Map.of()),
                new TargetConfig("jdbc:sqlite:/tmp/t.db", null, Secret.empty(), 500, SinkOptions.DEFAULT_POSITION_COLUMN, false),
                Path.of("/tmp/state"));
    }

    @Test
    void namesFollowThePipelineAndFitPostgresIdentifiers() {
        DdlTrigger.Names plain = DdlTrigger.names(config("orders", new TableId("sales", "t")));
        DdlTrigger.Names odd = DdlTrigger.names(config("a-very-long-pipeline-name-with-dashes-and-more-words", new TableId("public", "t")));

        assertThat(plain.function()).isEqualTo("tidemark_ddl_orders");
        assertThat(plain.startTrigger()).isEqualTo("tidemark_ddl_orders_start");
        assertThat(plain.schema()).isEqualTo("sales");
        assertThat(odd.endTrigger()).matches("[a-z0-9_]+").hasSizeLessThanOrEqualTo(63);
        assertThat(odd.function()).hasSizeLessThanOrEqualTo(63);
    }

    @Test
    void tableAndPipelineNamesEnterTheFunctionOnlyAsQuotedLiterals() {
        String sql = DdlTrigger.functionSql(config("p'1", new TableId("public", "it's \"odd\"")),
                DdlTrigger.names(config("p'1", new TableId("public", "it's \"odd\""))));

        assertThat(sql).contains("ARRAY['\"public\".\"it''s \"\"odd\"\"\"']::text[]").contains("'p''1'::text")
                .contains("SECURITY DEFINER SET search_path = pg_catalog, pg_temp");
    }

    @Test
    void theStartLineSaysWhichModeIsInForce() {
        PipelineConfig c = config("orders", new TableId("public", "t"));

        assertThat(SchemaChangeCapture.startLine(c, SchemaChangeCapture.Mode.EVENT_TRIGGER))
                .startsWith("capture orders: schema changes: event trigger \"tidemark_ddl_orders_start\"/\"tidemark_ddl_orders_end\"");
        assertThat(SchemaChangeCapture.startLine(c, SchemaChangeCapture.Mode.CATALOG_COMPARISON))
                .startsWith("capture orders: schema changes: catalog comparison (source user app may not create event triggers");
    }

    @Test
    void thePartitionTruncateTriggerIsNamedAfterThePipelineAndTakesItsNameOnlyAsAQuotedLiteral() {
        PipelineConfig c = config("p'1", new TableId("sales", "m"));
        PartitionTruncateTrigger.Names n = PartitionTruncateTrigger.names(config("orders", new TableId("sales", "m")));
        PartitionTruncateTrigger.Names odd = PartitionTruncateTrigger.names(config("a-very-long-pipeline-name-with-dashes-and-more-words",
                new TableId("public", "m")));

        assertThat(n).isEqualTo(new PartitionTruncateTrigger.Names("sales", "tidemark_trunc_orders", "tidemark_trunc_orders",
                "tidemark_ddl_orders_key"));
        assertThat(odd.trigger()).matches("[a-z0-9_]+").hasSizeLessThanOrEqualTo(63);
        assertThat(PartitionTruncateTrigger.functionSql(c, PartitionTruncateTrigger.names(c))).contains("'p''1'::text")
                .contains("'tidemark-truncate'").contains("SECURITY DEFINER SET search_path = pg_catalog, pg_temp")
                .contains("FROM \"sales\".\"tidemark_ddl_p_1_").contains("RETURNS trigger");
        assertThat(PartitionTruncateTrigger.startLine(config("orders", new TableId("sales", "m")), new PartitionedTables.Leaves(
                List.of(new TableId("sales", "m")), List.of(new TableId("sales", "m_1"), new TableId("sales", "m_2"))))).isEqualTo(
                "capture orders: TRUNCATE of one partition of sales.m: trigger \"tidemark_trunc_orders\" (function "
                        + "sales.tidemark_trunc_orders) on its 2 partitions writes it into the stream, where it stops capture");
    }

    @Test
    void theNewPartitionTriggerFiresAfterTheSchemaChangeTriggerAndTakesNamesOnlyAsQuotedLiterals() {
        PipelineConfig c = config("p'1", new TableId("sales", "m"));
        NewPartitionTrigger.Names n = NewPartitionTrigger.names(config("orders", new TableId("sales", "m")));
        NewPartitionTrigger.Names odd = NewPartitionTrigger.names(config("a-very-long-pipeline-name-with-dashes-and-more-words",
                new TableId("public", "m")));

        assertThat(n).isEqualTo(new NewPartitionTrigger.Names("sales", "tidemark_part_orders", "tidemark_ddl_orders_part_start",
                "tidemark_ddl_orders_part_end", DdlTrigger.names(config("orders")).setting().replace("ddl_before", "part_before")));
        assertThat(n.endTrigger()).as("event triggers fire in name order: the column comparison first")
                .isGreaterThan(DdlTrigger.names(config("orders")).endTrigger());
        assertThat(odd.startTrigger()).matches("[a-z0-9_]+").hasSizeLessThanOrEqualTo(63);
        assertThat(odd.endTrigger()).isGreaterThan(DdlTrigger.names(config("a-very-long-pipeline-name-with-dashes-and-more-words"))
                .endTrigger());
        String sql = NewPartitionTrigger.functionSql(c, NewPartitionTrigger.names(c), List.of(new TableId("sales", "it's \"m\"")));
        assertThat(sql).contains("ARRAY['\"sales\".\"it''s \"\"m\"\"\"']::text[]")
                .contains("'tidemark_trunc_p_1_").contains("format('ALTER TABLE %I.%I REPLICA IDENTITY FULL'")
                .contains("IF true AND m.relreplident <> 'f'").contains("SECURITY DEFINER SET search_path = pg_catalog, pg_temp")
                .contains("RETURNS event_trigger");
    }

    @Test
    void withoutSetReplicaIdentityFullTheNewPartitionTriggerLeavesTheIdentityAlone() {
        PipelineConfig on = config("orders", new TableId("sales", "m"));
        PipelineConfig off = new PipelineConfig(on.name(), new SourceConfig(on.source().jdbcUrl(), "app", Secret.empty(), "slot", "pub",
                on.source().tables(), false, Duration.ofMillis(10)), on.kafka(), on.target(), on.stateDir());

        assertThat(NewPartitionTrigger.functionSql(off, NewPartitionTrigger.names(off), List.of(new TableId("sales", "m"))))
                .contains("IF false AND m.relreplident <> 'f'").contains("CREATE OR REPLACE TRIGGER %I AFTER TRUNCATE");
    }
}
