package dev.tidemark.cli.status;

import dev.tidemark.connector.config.KafkaAdmins;
import dev.tidemark.connector.config.KafkaFailure;
import dev.tidemark.connector.config.PipelineConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * The end offset of every partition of a pipeline's topics, read through the Kafka admin API only: listing,
 * describing and listing offsets never create a topic (a consumer's metadata request could make a broker with
 * {@code auto.create.topics.enable} create it). Bounded by {@link #TIMEOUT}.
 */
final class TopicEnds {
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** @param ends end offset per partition of the topics that exist; @param missing the topics that do not */
    record Read(Map<TopicPartition, Long> ends, List<String> missing) {
    }

    private TopicEnds() {
    }

    /** The admin client's properties: the pipeline's ({@link dev.tidemark.connector.config.KafkaConfig#adminProperties()}), bounded by {@link #TIMEOUT}. */
    static Properties properties(PipelineConfig config) {
        Properties p = config.kafka().adminProperties();
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        return p;
    }

    /** @throws IllegalStateException naming the broker when Kafka cannot be read within {@link #TIMEOUT} */
    static Read read(PipelineConfig config) {
        try (Admin admin = KafkaAdmins.create(config.kafka().properties(), properties(config))) {
            Set<String> names = admin.listTopics().names().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            List<String> present = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (String topic : config.topics()) {
                (names.contains(topic) ? present : missing).add(topic);
            }
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            if (!present.isEmpty()) {
                admin.describeTopics(present).allTopicNames().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).forEach((name, d) ->
                        d.partitions().forEach(pi -> latest.put(new TopicPartition(name, pi.partition()), OffsetSpec.latest())));
            }
            Map<TopicPartition, Long> ends = new TreeMap<>((a, b) -> a.topic().equals(b.topic())
                    ? Integer.compare(a.partition(), b.partition()) : a.topic().compareTo(b.topic()));
            if (!latest.isEmpty()) {
                for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e
                        : admin.listOffsets(latest).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).entrySet()) {
                    ends.put(e.getKey(), e.getValue().offset());
                }
            }
            return new Read(ends, missing);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("no answer within " + TIMEOUT.toSeconds() + " s (" + KafkaFailure.noAnswerHint(config.kafka()) + ")", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(KafkaFailure.reason(config.kafka(), e.getCause()), e.getCause());
        }
    }
}
