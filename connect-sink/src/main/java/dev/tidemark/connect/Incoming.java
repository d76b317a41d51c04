package dev.tidemark.connect;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeDecoder;
import dev.tidemark.event.EventOrigin;
import dev.tidemark.event.PoisonEventException;
import dev.tidemark.sink.jdbc.PartitionOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * A record handed to {@code put} with its decoded event, or the reason it could not be decoded. Its coordinates are
 * the record's original ones (before any transformation): those are what the task seeks to and commits.
 */
record Incoming(SinkRecord record, byte[] key, ChangeEvent event, RuntimeException failure) {
    EventOrigin origin() {
        return new EventOrigin(record.originalTopic(), record.originalKafkaPartition(), record.originalKafkaOffset(), key);
    }

    /** Decodes a {@code put}; undecodable records are kept with the reason, to be isolated when applied. */
    static List<Incoming> decode(EnvelopeDecoder decoder, RecordBytes bytes, Collection<SinkRecord> records) {
        List<Incoming> items = new ArrayList<>(records.size());
        for (SinkRecord r : records) {
            byte[] key = null;
            try {
                key = bytes.key(r.topic(), r.keySchema(), r.key());
                byte[] value = bytes.value(r.topic(), r.valueSchema(), r.value());
                EventOrigin origin = new EventOrigin(r.originalTopic(), r.originalKafkaPartition(), r.originalKafkaOffset(), key);
                items.add(new Incoming(r, key, decoder.decode(origin, key, value), null));
            } catch (PoisonEventException e) {
                items.add(new Incoming(r, key, null, e));
            } catch (RuntimeException e) {
                EventOrigin origin = new EventOrigin(r.originalTopic(), r.originalKafkaPartition(), r.originalKafkaOffset(), key);
                items.add(new Incoming(r, key, null, new PoisonEventException(origin, "cannot read record: " + e.getMessage(), e)));
            }
        }
        return items;
    }

    /** The next offset of each partition in {@code items}: one past its last record there. */
    static List<PartitionOffset> nextOffsets(List<Incoming> items) {
        Map<TopicPartition, PartitionOffset> next = new LinkedHashMap<>();
        for (Incoming i : items) {
            SinkRecord r = i.record();
            next.put(new TopicPartition(r.originalTopic(), r.originalKafkaPartition()),
                    new PartitionOffset(r.originalTopic(), r.originalKafkaPartition(), r.originalKafkaOffset() + 1));
        }
        return new ArrayList<>(next.values());
    }
}
