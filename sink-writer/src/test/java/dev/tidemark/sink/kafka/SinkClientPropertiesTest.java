package dev.tidemark.sink.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Every Kafka client of the sink takes the security settings of {@link SinkSettings#extra()} ({@code kafka.properties}). */
class SinkClientPropertiesTest {
    private static final Map<String, String> SECURITY = Map.of(
            "security.protocol", "SASL_SSL",
            "sasl.mechanism", "SCRAM-SHA-512",
            "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"p\";",
            "ssl.truststore.location", "/certs/truststore.p12",
            "ssl.truststore.password", "t-pw",
            "ssl.keystore.location", "/certs/client.p12",
            "ssl.keystore.password", "k-pw",
            "ssl.key.password", "key-pw");
    private final SinkSettings settings = new SinkSettings("k:9093", "p", List.of("p.public.orders"), 100, Duration.ofMillis(200),
            new ReplayFrom.Stored(), SECURITY, "p.dlq");

    @Test
    void consumerDeadLetterProducerHistoryReaderAndCoverageAdminTakeTheSecuritySettings() {
        assertSecured("the sink's consumer", SinkConsumerConfig.properties(settings));
        assertSecured("the dead-letter producer", SinkConsumerConfig.deadLetterProperties(settings));
        assertSecured("the history reader", HistoryReader.properties(settings));
        assertSecured("the group-coverage admin client", GroupCoverage.adminProperties(settings));
    }

    private static void assertSecured(String client, Properties properties) {
        assertThat(properties).as(client).containsAllEntriesOf(SECURITY).containsEntry("bootstrap.servers", "k:9093");
    }
}
