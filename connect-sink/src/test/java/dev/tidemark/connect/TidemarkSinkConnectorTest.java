package dev.tidemark.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

/**
 * The connector's {@code validate} (what Connect's {@code PUT /connector-plugins/…/config/validate} and
 * {@code POST /connectors} check before creating anything) refuses a converter the task cannot read, naming the key.
 */
class TidemarkSinkConnectorTest {
    private static final String JSON = "org.apache.kafka.connect.json.JsonConverter";

    private static Map<String, String> config(String converter) {
        Map<String, String> p = new HashMap<>();
        p.put("name", "orders-sink");
        p.put("connector.class", TidemarkSinkConnector.class.getName());
        p.put("topics", "tm.public.orders");
        p.put(ConnectSinkConfig.TARGET_URL, "jdbc:sqlite:/tmp/never-opened.db");
        p.put("key.converter", converter);
        p.put("value.converter", converter);
        return p;
    }

    /** The error messages {@code validate} gives, by key (only keys with errors). */
    private static Map<String, List<String>> errors(Map<String, String> props) {
        Map<String, List<String>> out = new HashMap<>();
        for (ConfigValue v : new TidemarkSinkConnector().validate(props).configValues()) {
            if (!v.errorMessages().isEmpty()) {
                out.put(v.name(), v.errorMessages());
            }
        }
        return out;
    }

    @Test
    void byteArrayAndAJsonConverterKeepingSchemasAndNullsPass() {
        assertThat(errors(config("org.apache.kafka.connect.converters.ByteArrayConverter"))).isEmpty();
        Map<String, String> json = config(JSON);
        json.put("value.converter.replace.null.with.default", "false");
        assertThat(errors(json)).isEmpty();
    }

    @Test
    void aValueConverterWithoutSchemasIsRefusedByValidate() {
        Map<String, String> p = config(JSON);
        p.put("value.converter.replace.null.with.default", "false");
        p.put("value.converter.schemas.enable", "false");
        assertThat(errors(p)).containsOnlyKeys("value.converter.schemas.enable");
        assertThat(errors(p).get("value.converter.schemas.enable")).singleElement().asString()
                .startsWith("Invalid value false for configuration value.converter.schemas.enable: the sink needs the schemas");
    }

    @Test
    void aValueConverterReplacingNullsIsRefusedByValidate() {
        assertThat(errors(config(JSON))).containsOnlyKeys("value.converter.replace.null.with.default");
    }

    @Test
    void aKeyConverterWithoutSchemasIsRefusedByValidate() {
        Map<String, String> p = config(JSON);
        p.put("value.converter.replace.null.with.default", "false");
        p.put("key.converter.schemas.enable", "false");
        assertThat(errors(p)).containsOnlyKeys("key.converter.schemas.enable");
        assertThat(errors(p).get("key.converter.schemas.enable")).singleElement().asString()
                .contains("the sink needs the key's schema");
    }
}
