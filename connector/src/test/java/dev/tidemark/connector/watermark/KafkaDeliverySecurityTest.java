package dev.tidemark.connector.watermark;

import static dev.tidemark.connector.config.KafkaSecurityFixture.assertSecured;

import dev.tidemark.connector.config.KafkaSecurityFixture;
import org.junit.jupiter.api.Test;

class KafkaDeliverySecurityTest {
    @Test
    void theWatermarkProducerTakesTheSecuritySettings() {
        assertSecured("watermark's producer", KafkaDelivery.producerProperties("k:9093", KafkaSecurityFixture.security()));
    }
}
