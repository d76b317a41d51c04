package dev.tidemark.connector.pipeline;

import dev.tidemark.connector.config.KafkaFailure;
import dev.tidemark.connector.config.KafkaAdmins;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.TargetAccess;
import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.JdbcEndpoints;
import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.sink.jdbc.StoredOffsetsReader;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

/**
 * Before {@code run} or {@code sink} creates anything (slot, publication, topics, the sink's tables): the offsets the
 * target stored for this pipeline must not lie past the end of its topics. They do when the topics were deleted (by
 * hand, or by an older {@code tidemark drop --topics}) or Kafka's data was lost: the sink would refuse later, after
 * capture had created a new slot and started a snapshot. Read-only: a SQLite target that does not exist is not opened,
 * a target without {@code tidemark_offsets} has stored nothing, Kafka is asked through the admin API only (a topic
 * that does not exist has end offset 0). With {@code --accept-retention-gap} the check is skipped (the sink then
 * starts such partitions at their earliest offset and records the gap).
 */
final class StoredOffsetsCheck {
    private static final long WAIT_SECONDS = 30;

    private StoredOffsetsCheck() {
    }

    /**
     * @param stored the target's stored offsets ({@link #storedOffsets})
     * @throws IllegalStateException with one line naming the partitions and the way on, when a stored offset is past the end
     */
    static void check(PipelineConfig config, Map<String, Map<Integer, Long>> stored, boolean acceptRetentionGap, String command,
                      String configLabel) {
        if (acceptRetentionGap || stored.isEmpty()) {
            return;
        }
        refusal(stored, endOffsets(config, stored.keySet()), command, configLabel == null ? "FILE" : configLabel,
                GapWayOn.tablesByTopic(config)).ifPresent(r -> {
            throw new IllegalStateException(r);
        });
    }

    /**
     * The refusal for offsets {@code stored} in the target against the topics' {@code ends} (a partition without an end
     * has end 0), or empty when every stored offset is within its topic; {@code tablesByTopic} names the way on
     * ({@link GapWayOn}). Pure.
     */
    static Optional<String> refusal(Map<String, Map<Integer, Long>> stored, Map<String, Map<Integer, Long>> ends, String command,
                                    String configLabel, Map<String, dev.tidemark.event.TableId> tablesByTopic) {
        List<String> past = new ArrayList<>();
        Set<String> pastTopics = new java.util.TreeSet<>();
        stored.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(t -> t.getValue().entrySet().stream()
                .sorted(Map.Entry.comparingByKey()).forEach(p -> {
                    long end = ends.getOrDefault(t.getKey(), Map.of()).getOrDefault(p.getKey(), 0L);
                    if (p.getValue() > end) {
                        pastTopics.add(t.getKey());
                        past.add("topic " + t.getKey() + " partition " + p.getKey() + ": stored offset " + p.getValue()
                                + " is past the end offset " + end);
                    }
                }));
        if (past.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("the target's stored offsets are past the end of the pipeline's topics (were they deleted and re-created?): "
                + String.join("; ", past) + ". Nothing was created or changed. To go on, "
                + GapWayOn.text(command, configLabel, GapWayOn.tables(pastTopics, tablesByTopic)));
    }

    /** The offsets the target stored for {@code config}'s topics; empty for a target that stored none (read-only). */
    static Map<String, Map<Integer, Long>> storedOffsets(PipelineConfig config) {
        String url = config.target().jdbcUrl();
        if (JdbcEndpoints.sqliteFile(url).filter(f -> !Files.exists(f)).isPresent()) {
            return Map.of();
        }
        try (Connection c = TargetAccess.open(config)) {
            Map<String, Map<Integer, Long>> all = StoredOffsetsReader.readIfPresent(c, Databases.targetForUrl(url), config.name())
                    .orElse(Map.of());
            Map<String, Map<Integer, Long>> mine = new HashMap<>(all);
            mine.keySet().retainAll(Set.copyOf(config.topics()));
            return mine;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the stored offsets of pipeline " + config.name() + " in target "
                    + UrlMask.mask(url) + ": " + e.getMessage(), e);
        }
    }

    /** The log end offset of every partition of each of {@code topics} that exists: topic → partition → end. */
    static Map<String, Map<Integer, Long>> endOffsets(PipelineConfig config, Set<String> topics) {
        Admin admin = KafkaAdmins.create(config.kafka());
        try {
            Set<String> names = admin.listTopics().names().get(WAIT_SECONDS, TimeUnit.SECONDS);
            List<String> existing = topics.stream().filter(names::contains).toList();
            Map<TopicPartition, OffsetSpec> query = new HashMap<>();
            if (!existing.isEmpty()) {
                Map<String, TopicDescription> described = admin.describeTopics(existing).allTopicNames().get(WAIT_SECONDS, TimeUnit.SECONDS);
                described.forEach((t, d) -> d.partitions().forEach(pi -> query.put(new TopicPartition(t, pi.partition()), OffsetSpec.latest())));
            }
            Map<String, Map<Integer, Long>> out = new HashMap<>();
            if (!query.isEmpty()) {
                admin.listOffsets(query).all().get(WAIT_SECONDS, TimeUnit.SECONDS)
                        .forEach((tp, info) -> out.computeIfAbsent(tp.topic(), t -> new HashMap<>()).put(tp.partition(), info.offset()));
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the end offsets of " + topics, e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("cannot read the end offsets of topics " + topics + " on " + config.kafka().bootstrapServers()
                    + ": no answer within " + WAIT_SECONDS + " s (" + KafkaFailure.noAnswerHint(config.kafka()) + "; nothing was created)", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read the end offsets of topics " + topics + " on " + config.kafka().bootstrapServers()
                    + ": " + KafkaFailure.reason(config.kafka(), e.getCause()), e.getCause());
        } finally {
            admin.close(Duration.ZERO);
        }
    }
}
