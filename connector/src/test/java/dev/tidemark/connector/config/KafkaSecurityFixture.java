package dev.tidemark.connector.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/** A pipeline whose {@code kafka.properties} are a SASL_SSL client's with key and trust stores, for the tests that pin every Kafka client to them. */
public final class KafkaSecurityFixture {
    private static final String YAML = """
            name: p
            source:
              url: jdbc:postgresql://h/db
              tables: [public.orders]
            kafka:
              bootstrapServers: k:9093
              properties:
                security.protocol: SASL_SSL
                sasl.mechanism: SCRAM-SHA-512
                sasl.jaas.config: 'org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="p";'
                ssl.truststore.location: /certs/truststore.p12
                ssl.truststore.password: t-pw
                ssl.keystore.location: /certs/client.p12
                ssl.keystore.password: k-pw
                ssl.key.password: key-pw
            target:
              url: jdbc:sqlite:t.db
              deadLetterTopic: p.dlq
            """;

    private KafkaSecurityFixture() {
    }

    /** The pipeline: {@code public.orders} over {@code k:9093}, with the eight security settings as {@code kafka.properties}. */
    public static PipelineConfig pipeline() {
        PipelineConfig config = PipelineConfigParser.parse(YAML, "p.yaml", Path.of("."), Map.<String, String>of()::get);
        assertThat(config.kafka().properties()).hasSize(8);
        return config;
    }

    /** The pipeline's {@code kafka.properties}. */
    public static Map<String, String> security() {
        return pipeline().kafka().properties();
    }

    /** Asserts that {@code client}'s properties hold every security setting and the bootstrap servers. */
    public static void assertSecured(String client, Properties properties) {
        assertThat(properties).as(client).containsAllEntriesOf(security()).containsEntry("bootstrap.servers", "k:9093");
    }
}
