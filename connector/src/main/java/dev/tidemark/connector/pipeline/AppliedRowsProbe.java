package dev.tidemark.connector.pipeline;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeDecoder;
import dev.tidemark.event.EventOrigin;
import dev.tidemark.event.PoisonEventException;
import dev.tidemark.sink.kafka.AppliedRows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the records a sink applied last from a topic, to tell whether they leave a row in the target table
 * ({@link AppliedRows}): per partition, at most {@value #WINDOW} records just below its stored offset, with a consumer
 * of its own (assigned, no group, nothing committed). A record that cannot be decoded is passed over; a partition
 * whose window Kafka has removed (retention) proves nothing. Read-only.
 */
final class AppliedRowsProbe {
    private static final int WINDOW = AppliedRows.WINDOW;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private AppliedRowsProbe() {
    }

    /**
     * Whether the records below {@code stored} (partition → next offset) of {@code topic} leave a row in its table.
     *
     * @throws IllegalStateException when the window cannot be read within 30 s
     */
    static boolean leaveARow(Properties kafka, String topic, Map<Integer, Long> stored) {
        Properties p = consumerProperties(kafka);
        EnvelopeDecoder decoder = new EnvelopeDecoder();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            for (Map.Entry<Integer, Long> e : stored.entrySet()) {
                if (e.getValue() > 0 && AppliedRows.leaveARow(window(c, decoder, new TopicPartition(topic, e.getKey()), e.getValue()))) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Whether the records below {@code stored} of {@code topic} may leave a row in its table: false only when each
     * partition's whole history below its stored offset was read (its log starts at 0 and holds at most
     * {@value #WINDOW} records below it) and leaves none, e.g. a table empty at the source whose topic holds only its
     * snapshot's sweep.
     */
    static boolean mayLeaveARow(Properties kafka, String topic, Map<Integer, Long> stored) {
        if (stored.values().stream().anyMatch(o -> o > WINDOW)) {
            return true;
        }
        Properties p = consumerProperties(kafka);
        EnvelopeDecoder decoder = new EnvelopeDecoder();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            for (Map.Entry<Integer, Long> e : stored.entrySet()) {
                TopicPartition tp = new TopicPartition(topic, e.getKey());
                if (e.getValue() > 0 && (c.beginningOffsets(List.of(tp), TIMEOUT).getOrDefault(tp, 0L) > 0
                        || AppliedRows.leaveARow(window(c, decoder, tp, e.getValue())))) {
                    return true;
                }
            }
            return false;
        }
    }

    static Properties consumerProperties(Properties kafka) {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "tidemark-applied-rows-probe");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "500");
        return p;
    }

    /** The decoded records of {@code tp} in [max(log start, next − WINDOW), next), in offset order. */
    private static List<ChangeEvent> window(KafkaConsumer<byte[], byte[]> c, EnvelopeDecoder decoder, TopicPartition tp, long next) {
        c.assign(List.of(tp));
        long start = c.beginningOffsets(List.of(tp), TIMEOUT).getOrDefault(tp, 0L);
        long end = Math.min(next, c.endOffsets(List.of(tp), TIMEOUT).getOrDefault(tp, 0L));
        List<ChangeEvent> events = new ArrayList<>();
        if (start >= end) {
            return events;
        }
        c.seek(tp, Math.max(start, end - WINDOW));
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (c.position(tp, TIMEOUT) < end) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("cannot read topic " + tp.topic() + " partition " + tp.partition() + " up to offset " + end
                        + " within " + TIMEOUT.toSeconds() + " s to check its target table (check that the broker is healthy, then start again)");
            }
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                if (r.offset() < end) {
                    try {
                        events.add(decoder.decode(new EventOrigin(r.topic(), r.partition(), r.offset(), r.key()), r.key(), r.value()));
                    } catch (PoisonEventException skipped) {
                        // not a change the sink applied as a row: proves nothing
                    }
                }
            }
        }
        return events;
    }
}
