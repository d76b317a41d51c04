package dev.tidemark.connector.debezium;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.common.TopicPartition;

/**
 * What capture has handed to Kafka so far: records produced (handed to the producer), the row records among them,
 * events acknowledged, and per partition the offset after the last record Kafka acknowledged. Thread-safe: the
 * engine's thread and the producer's callbacks count, any thread reads.
 */
final class CaptureCounts {
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong produced = new AtomicLong();
    private final AtomicLong rowRecords = new AtomicLong();
    private final Map<TopicPartition, Long> sentEnds = new ConcurrentHashMap<>();
    /** The producer callback of every record capture sends: moves its partition's end past it. */
    private final Callback recordEnd = (m, e) -> {
        if (e == null && m != null && m.hasOffset()) {
            sentEnds.merge(new TopicPartition(m.topic(), m.partition()), m.offset() + 1, Math::max);
        }
    };

    Callback recordEnd() {
        return recordEnd;
    }

    /** A record was handed to the producer (counted before the send: a sink may apply it before its ack is seen). */
    void countProduced() {
        produced.incrementAndGet();
    }

    /** The record handed to the producer was a row change or a delete's tombstone. */
    void countRowRecord() {
        rowRecords.incrementAndGet();
    }

    /** A change's records were acknowledged by Kafka. */
    void countSent() {
        sent.incrementAndGet();
    }

    long sent() {
        return sent.get();
    }

    long produced() {
        return produced.get();
    }

    long rowRecordsProduced() {
        return rowRecords.get();
    }

    Map<TopicPartition, Long> sentEnds() {
        return Map.copyOf(sentEnds);
    }
}
