package dev.tidemark.connector.pipeline;

import dev.tidemark.connector.config.KafkaFailure;
import dev.tidemark.connector.config.KafkaAdmins;
import dev.tidemark.connector.config.PipelineConfig;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Before a sink started on its own opens its target: asks Kafka for its topic names, 30 s at most, so an unreachable
 * broker is one line naming it instead of a consumer that waits without a word. Topics that do not exist yet are
 * said once (the sink waits for capture to create them; it never creates them itself). Read-only.
 */
final class SinkKafkaCheck {
    private static final Logger log = LoggerFactory.getLogger(SinkKafkaCheck.class);
    static final long WAIT_SECONDS = 30;

    private SinkKafkaCheck() {
    }

    static void check(PipelineConfig config) {
        Admin admin = KafkaAdmins.create(config.kafka());
        try {
            Set<String> names = admin.listTopics().names().get(WAIT_SECONDS, TimeUnit.SECONDS);
            List<String> missing = config.topics().stream().filter(t -> !names.contains(t)).toList();
            if (!missing.isEmpty()) {
                log.info("topics {} do not exist yet on {}: the sink waits for capture to create them", missing,
                        config.kafka().bootstrapServers());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking Kafka at " + config.kafka().bootstrapServers()
                    + " for topics " + config.topics(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka at " + config.kafka().bootstrapServers() + " did not answer within "
                    + WAIT_SECONDS + " s while starting the sink of " + config.name()
                    + " (" + KafkaFailure.noAnswerHint(config.kafka()) + "; nothing was written)", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot list topics on " + config.kafka().bootstrapServers() + " for the sink of "
                    + config.name() + ": " + KafkaFailure.reason(config.kafka(), e.getCause()), e.getCause());
        } finally {
            // not close(): it would wait for an unanswered request's own timeout (60 s), twice the time stated above
            admin.close(Duration.ZERO);
        }
    }
}
