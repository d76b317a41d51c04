package dev.tidemark.connector.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineConfigDescribeTest {
    private static final String YAML = "name: p\nsource:\n  url: jdbc:postgresql://h/db\n  tables: [public.orders]\n%s"
            + "kafka:\n  bootstrapServers: k:9092\ntarget:\n  url: jdbc:sqlite:t.db\n";

    @Test
    void noPasswordIsSaidSo() {
        String line = PipelineConfigParser.parse(YAML.formatted(""), "p.yaml", Path.of("."), Map.<String, String>of()::get).describe();
        assertThat(line).contains("user postgres without password").doesNotContain("[hidden]");
    }

    @Test
    void aPasswordIsHidden() {
        String line = PipelineConfigParser.parse(YAML.formatted("  password: s3cret\n"), "p.yaml", Path.of("."), Map.<String, String>of()::get)
                .describe();
        assertThat(line).contains("user postgres password [hidden]").doesNotContain("s3cret");
    }

    @Test
    void kafkaSecurityIsSaidByProtocolAndMechanismWithoutItsSecrets() {
        String yaml = YAML.formatted("").replace("  bootstrapServers: k:9092\n", "  bootstrapServers: k:9093\n  properties:\n"
                + "    security.protocol: SASL_SSL\n    sasl.mechanism: SCRAM-SHA-512\n"
                + "    sasl.jaas.config: 'org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"jaas-s3cret\";'\n"
                + "    ssl.truststore.password: store-s3cret\n    ssl.keystore.password: store-s3cret\n    ssl.key.password: key-s3cret\n");
        String line = PipelineConfigParser.parse(yaml, "p.yaml", Path.of("."), Map.<String, String>of()::get).describe();
        assertThat(line).contains("→ kafka k:9093 (security.protocol SASL_SSL, sasl.mechanism SCRAM-SHA-512) topics")
                .doesNotContain("s3cret").doesNotContain("jaas");
    }

    @Test
    void aJaasLineIsASecretKeyLikeAPassword() {
        assertThat(ConfigReader.secret("kafka.properties.sasl.jaas.config")).isTrue();
        assertThat(ConfigReader.secret("kafka.properties.ssl.keystore.password")).isTrue();
        assertThat(ConfigReader.secret("kafka.properties.ssl.truststore.location")).isFalse();
    }
}
