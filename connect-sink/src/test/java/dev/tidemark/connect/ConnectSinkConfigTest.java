package dev.tidemark.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.TargetTableNames;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class ConnectSinkConfigTest {

    private static Map<String, String> minimal() {
        Map<String, String> p = new HashMap<>();
        p.put("name", "orders-sink");
        p.put("topics", "shop.public.orders");
        p.put(ConnectSinkConfig.TARGET_URL, "jdbc:postgresql://db:5432/target");
        p.put(ConnectSinkConfig.TARGET_USER, "writer");
        p.put(ConnectSinkConfig.TARGET_PASSWORD, "s3cret");
        return p;
    }

    @Test
    void defaultsThePipelineToTheConnectorNameAndHidesThePassword() {
        ConnectSinkSettings s = ConnectSinkConfig.parse(minimal());
        assertThat(s.options().pipeline()).isEqualTo("orders-sink");
        assertThat(s.batchSize()).isEqualTo(500);
        assertThat(s.password().value()).isEqualTo("s3cret");
        assertThat(s.poison()).isEqualTo(PoisonRoute.STOP);
        assertThat(s.toString()).doesNotContain("s3cret").contains("password=[hidden]");
        assertThat(ConnectSinkConfig.connectionProperties(s)).containsEntry("user", "writer").containsEntry("password", "s3cret");
    }

    @Test
    void anExplicitPipelineWins() {
        Map<String, String> p = minimal();
        p.put(ConnectSinkConfig.PIPELINE, "shop");
        p.put(ConnectSinkConfig.DELETE_MODE, "soft");
        assertThat(ConnectSinkConfig.parse(p).options().pipeline()).isEqualTo("shop");
        assertThat(ConnectSinkConfig.parse(p).options().softDeletes()).isTrue();
    }

    @Test
    void aMissingUrlNamesTheKey() {
        Map<String, String> p = minimal();
        p.remove(ConnectSinkConfig.TARGET_URL);
        assertThatThrownBy(() -> ConnectSinkConfig.parse(p)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("target.url");
    }

    @Test
    void anUnsupportedUrlNamesTheKeyAndMasksCredentials() {
        Map<String, String> p = minimal();
        p.put(ConnectSinkConfig.TARGET_URL, "jdbc:oracle:thin:@//db:1521/x?user=scott&password=tiger");
        assertThatThrownBy(() -> ConnectSinkConfig.parse(p)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("configuration target.url").hasMessageContaining("unsupported target jdbc:oracle")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("tiger").doesNotContain("\n"));
    }

    @Test
    void aBadBatchSizeNamesTheKey() {
        Map<String, String> p = minimal();
        p.put(ConnectSinkConfig.BATCH_SIZE, "0");
        assertThatThrownBy(() -> ConnectSinkConfig.parse(p)).isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value 0 for configuration batch.size: Value must be at least 1");
        p.put(ConnectSinkConfig.BATCH_SIZE, "many");
        assertThatThrownBy(() -> ConnectSinkConfig.parse(p)).hasMessageContaining("configuration batch.size");
    }

    @Test
    void aBadDeleteModeNamesTheKey() {
        Map<String, String> p = minimal();
        p.put(ConnectSinkConfig.DELETE_MODE, "shred");
        assertThatThrownBy(() -> ConnectSinkConfig.parse(p)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("configuration delete.mode");
    }

    @Test
    void aReservedPositionColumnNamesTheKey() {
        Map<String, String> p = minimal();
        p.put(ConnectSinkConfig.POSITION_COLUMN, "__tidemark_deleted");
        assertThatThrownBy(() -> ConnectSinkConfig.parse(p)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("configuration position.column");
    }

    @Test
    void deadLettersOnlyWithToleranceAllAndATopic() {
        Map<String, String> p = minimal();
        p.put("errors.tolerance", "all");
        assertThat(ConnectSinkConfig.parse(p).poison()).isEqualTo(PoisonRoute.STOP);
        p.put("errors.deadletterqueue.topic.name", "orders-dlq");
        assertThat(ConnectSinkConfig.parse(p).poison()).isEqualTo(PoisonRoute.DEAD_LETTER);
        p.put("errors.tolerance", "none");
        assertThat(ConnectSinkConfig.parse(p).poison()).isEqualTo(PoisonRoute.STOP);
    }

    @Test
    void theConnectorRefusesABadConfigurationAtStartAndCopiesItToEveryTask() {
        TidemarkSinkConnector c = new TidemarkSinkConnector();
        Map<String, String> bad = minimal();
        bad.put(ConnectSinkConfig.BATCH_SIZE, "-1");
        assertThatThrownBy(() -> c.start(bad)).isInstanceOf(ConfigException.class).hasMessageContaining("batch.size");
        c.start(minimal());
        assertThat(c.taskConfigs(3)).hasSize(3).allSatisfy(t -> assertThat(t).isEqualTo(minimal()));
        assertThat(c.taskClass()).isEqualTo(TidemarkSinkTask.class);
        assertThat(c.config().configKeys()).containsKeys("target.url", "target.password", "batch.size");
    }

    @Test
    void aJsonConverterMustKeepSchemasAndNulls() {
        Map<String, String> p = minimal();
        p.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        assertThatThrownBy(() -> ConnectSinkConfig.parse(p)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("configuration value.converter.replace.null.with.default");
        p.put("value.converter.replace.null.with.default", "false");
        assertThat(ConnectSinkConfig.parse(p).options().pipeline()).isEqualTo("orders-sink");
        p.put("value.converter.schemas.enable", "false");
        assertThatThrownBy(() -> ConnectSinkConfig.parse(p)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("configuration value.converter.schemas.enable");
        p.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        assertThat(ConnectSinkConfig.parse(p).options().pipeline()).isEqualTo("orders-sink");
    }

    @Test
    void targetTablesNamesTheTargetTableOfSourceTablesAndTheOthersKeepTheirNameWithoutSchema() {
        Map<String, String> p = minimal();
        p.put(ConnectSinkConfig.TARGET_TABLES, "sales.orders:sales_orders, hr.orders : hr_orders");
        TargetTableNames names = ConnectSinkConfig.parse(p).options().targetTables();
        assertThat(names.of(new TableId("sales", "orders"))).isEqualTo("sales_orders");
        assertThat(names.of(new TableId("hr", "orders"))).isEqualTo("hr_orders");
        assertThat(names.of(new TableId("public", "orders"))).isEqualTo("orders");
        assertThat(ConnectSinkConfig.parse(minimal()).options().targetTables().explicit()).isEmpty();
    }

    @Test
    void aBadTargetTablesEntryIsRefusedInOneLineNamingIt() {
        Map<String, String> p = minimal();
        p.put(ConnectSinkConfig.TARGET_TABLES, "sales.orders");
        assertThatThrownBy(() -> ConnectSinkConfig.parse(p)).isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value sales.orders for configuration target.tables: expected schema.table:target_table, "
                        + "such as sales.orders:sales_orders");
        p.put(ConnectSinkConfig.TARGET_TABLES, "sales.orders:");
        assertThatThrownBy(() -> ConnectSinkConfig.parse(p)).hasMessage("Invalid value sales.orders: for configuration "
                + "target.tables: a target table name cannot be empty");
        p.put(ConnectSinkConfig.TARGET_TABLES, "sales.orders:x,hr.orders:X");
        assertThatThrownBy(() -> ConnectSinkConfig.parse(p)).hasMessage("Invalid value hr.orders:X for configuration "
                + "target.tables: sales.orders and hr.orders would both be written to target table X and their rows would merge");
        p.put(ConnectSinkConfig.TARGET_TABLES, "sales.orders:x,sales.orders:y");
        assertThatThrownBy(() -> ConnectSinkConfig.parse(p)).hasMessage("Invalid value sales.orders:y for configuration "
                + "target.tables: sales.orders is named twice");
        assertThat(new TidemarkSinkConnector().validate(p).configValues()).filteredOn(v -> v.name().equals("target.tables"))
                .singleElement().satisfies(v -> assertThat(v.errorMessages()).containsExactly(
                        "Invalid value sales.orders:y for configuration target.tables: sales.orders is named twice"));
    }
}
