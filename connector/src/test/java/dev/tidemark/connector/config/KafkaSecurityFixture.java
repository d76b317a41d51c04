package dev.tidemark.connector.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/** A pipeline whose {@code kafka.properties} are a SASL_SSL client's with key and trust stores, for the tests that pin every Kafka client to them. */
public final class KafkaSecurityFixture {
    /** Every security setting a client of a SASL_SSL listener with mutual TLS may need. */
    public static final Map<String, String> SECURITY = Map.of(
            "security.protocol", "SASL_SSL",
            "sasl.mechanism", "SCRAM-SHA-512",
            "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"p\";",
            "ssl.truststore.location", "/certs/truststore.p12",
            "ssl.truststore.password", "t-pw",
            "ssl.keystore.location", "/certs/client.p12",
            "ssl.keystore.password", "k-pw",
            "ssl.key.password", "key-pw");

    private KafkaSecurityFixture() {
    }

    /** A pipeline of {@code public.orders} over {@code k:9093} with {@link #SECURITY} as its {@code kafka.properties}. */
    public static PipelineConfig pipeline() {
        StringBuilder yaml = new StringBuilder("name: p\nsource:\n  url: jdbc:postgresql://h/db\n  tables: [public.orders]\n"
                + "kafka:\n  bootstrapServers: k:9093\n  properties:\n");
        SECURITY.forEach((k, v) -> yaml.append("    ").append(k).append(": '").append(v).append("'\n"));
        yaml.append("target:\n  url: jdbc:sqlite:t.db\n  deadLetterTopic: p.dlq\n");
        return PipelineConfigParser.parse(yaml.toString(), "p.yaml", Path.of("."), Map.<String, String>of()::get);
    }

    /** Asserts that {@code client}'s properties hold every security setting and the bootstrap servers. */
    public static void assertSecured(String client, Properties properties) {
        assertThat(properties).as(client).containsAllEntriesOf(SECURITY).containsEntry("bootstrap.servers", "k:9093");
    }
}
