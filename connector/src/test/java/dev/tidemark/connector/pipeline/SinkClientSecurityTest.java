package dev.tidemark.connector.pipeline;

import static dev.tidemark.connector.config.KafkaSecurityFixture.assertSecured;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.config.KafkaSecurityFixture;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.sink.kafka.ReplayFrom;
import org.junit.jupiter.api.Test;

/**
 * The sink's settings carry every {@code kafka.properties} entry to its consumer and dead-letter producer (pinned in
 * sink-writer's {@code SinkClientPropertiesTest}), and the start checks' consumer takes them too.
 */
class SinkClientSecurityTest {
    private final PipelineConfig config = KafkaSecurityFixture.pipeline();

    @Test
    void theSinkAndItsStartChecksTakeTheSecuritySettings() {
        assertThat(SinkFactory.settings(config, new ReplayFrom.Stored(), SinkChoices.DEFAULT).extra())
                .containsAllEntriesOf(KafkaSecurityFixture.security());
        assertSecured("the applied-rows probe's consumer", AppliedRowsProbe.consumerProperties(config.kafka().adminProperties()));
    }
}
