package dev.tidemark.sink.kafka;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.TableId;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Turns what the runner fetched (consumer thread) and what the apply thread committed (apply thread) into
 * {@link SinkMetrics} calls.
 */
final class SinkReport {
    private SinkReport() {
    }

    /** One committed part: its row changes ({@link #isRowChange}) counted per table, and how long the commit took. */
    static void applied(SinkMetrics metrics, List<ChangeEvent> events, long nanos) {
        if (metrics == SinkMetrics.NONE) {
            return;
        }
        Map<TableId, Long> perTable = new LinkedHashMap<>();
        for (ChangeEvent e : events) {
            if (isRowChange(e)) {
                perTable.merge(e.table(), 1L, Long::sum);
            }
        }
        perTable.forEach(metrics::applied);
        metrics.batchApplied(Duration.ofNanos(nanos));
    }

    /**
     * Whether {@code event} is a change the source made to rows (an insert, update, snapshot read, delete or truncate),
     * the one thing the "applied" figure counts, as capture's "captured" does. Not: a tombstone (it follows its delete),
     * capture's snapshot sweep and a schema change (control records between the rows).
     */
    static boolean isRowChange(ChangeEvent event) {
        if (event instanceof ChangeEvent.Delete d) {
            return !d.tombstone();
        }
        if (event instanceof ChangeEvent.Truncate t) {
            return !t.sweep();
        }
        return event instanceof ChangeEvent.Upsert;
    }

    /** A committed poll: each partition's next offset and the timestamp of its last record. */
    static void partitions(SinkMetrics metrics, List<Pending> items) {
        if (metrics == SinkMetrics.NONE) {
            return;
        }
        Map<TopicPartition, ConsumerRecord<byte[], byte[]>> last = new LinkedHashMap<>();
        for (Pending p : items) {
            last.put(new TopicPartition(p.record().topic(), p.record().partition()), p.record());
        }
        last.forEach((tp, r) -> metrics.partitionApplied(tp.topic(), tp.partition(), r.offset() + 1, r.timestamp()));
    }

    /** Consumer thread: each assigned partition's log end as the last fetch saw it (no request to Kafka). */
    static void fetched(SinkMetrics metrics, Consumer<?, ?> consumer) {
        if (metrics == SinkMetrics.NONE) {
            return;
        }
        for (TopicPartition tp : consumer.assignment()) {
            OptionalLong lag = consumer.currentLag(tp);
            if (lag.isPresent()) {
                long position = consumer.position(tp);
                metrics.partitionFetched(tp.topic(), tp.partition(), position, position + lag.getAsLong());
            }
        }
    }
}
