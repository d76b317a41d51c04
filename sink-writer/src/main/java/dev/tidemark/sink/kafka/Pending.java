package dev.tidemark.sink.kafka;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeDecoder;
import dev.tidemark.event.EventOrigin;
import dev.tidemark.event.PoisonEventException;
import dev.tidemark.sink.jdbc.PartitionOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/** A polled record with its decoded event, or the reason it could not be decoded. */
record Pending(ConsumerRecord<byte[], byte[]> record, ChangeEvent event, RuntimeException failure) {
    EventOrigin origin() {
        return new EventOrigin(record.topic(), record.partition(), record.offset(), record.key());
    }

    /** Consumer thread: decodes a poll; undecodable records are kept with the reason, to be isolated when applied. */
    static List<Pending> decode(EnvelopeDecoder decoder, ConsumerRecords<byte[], byte[]> records) {
        List<Pending> items = new ArrayList<>(records.count());
        for (ConsumerRecord<byte[], byte[]> r : records) {
            try {
                items.add(new Pending(r, decoder.decode(new EventOrigin(r.topic(), r.partition(), r.offset(), r.key()), r.key(), r.value()), null));
            } catch (PoisonEventException e) {
                items.add(new Pending(r, null, e));
            }
        }
        return items;
    }

    /** The next offset of each partition in {@code items}: one past its last record there. */
    static List<PartitionOffset> nextOffsets(List<Pending> items) {
        Map<TopicPartition, PartitionOffset> next = new LinkedHashMap<>();
        for (Pending p : items) {
            ConsumerRecord<byte[], byte[]> r = p.record();
            next.put(new TopicPartition(r.topic(), r.partition()), new PartitionOffset(r.topic(), r.partition(), r.offset() + 1));
        }
        return new ArrayList<>(next.values());
    }
}
