package dev.tidemark.connector.debezium;

import static dev.tidemark.connector.config.KafkaSecurityFixture.assertSecured;

import dev.tidemark.connector.config.KafkaSecurityFixture;
import dev.tidemark.connector.config.PipelineConfig;
import org.junit.jupiter.api.Test;

/** Capture's producers and the admin clients of its checks, history and drop take every {@code kafka.properties} entry. */
class KafkaClientSecurityTest {
    private final PipelineConfig config = KafkaSecurityFixture.pipeline();

    @Test
    void everyCaptureAndDropClientTakesTheSecuritySettings() {
        assertSecured("capture's producer", CaptureSettings.producer(config));
        assertSecured("the history producer", CaptureSettings.acknowledgedProducer(config));
        assertSecured("drop's history clients", HistoryDrop.clientProperties(config));
        assertSecured("every admin client (KafkaAdmins)", config.kafka().adminProperties());
    }
}
