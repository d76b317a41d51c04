package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.KafkaFailure;
import dev.tidemark.connector.config.PipelineConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Capture's Kafka producer: writes each record once as JSON with schemas ({@link ConnectJsonWriter}) to the partition
 * its key's values choose ({@link KeyValuePartitioner}) and counts it in {@link CaptureCounts}. Sends from the
 * engine's thread only; {@link #close} from the thread that closes capture.
 */
final class CaptureSender implements AutoCloseable {
    /** Capture's lines keep the one logger name users and tests know. */
    private static final Logger log = LoggerFactory.getLogger(DebeziumChangeSource.class);

    /** The records of one change handed to the producer: their acknowledgements as one, and their bytes. */
    record Sent(Future<RecordMetadata> ack, int bytes) {
    }

    private final PipelineConfig config;
    private final CaptureCounts counts;
    private final ConnectJsonWriter json = new ConnectJsonWriter();
    private final KafkaProducer<byte[], byte[]> producer;

    CaptureSender(PipelineConfig config, Properties producerProperties, CaptureCounts counts) {
        this.config = config;
        this.counts = counts;
        this.producer = new KafkaProducer<>(producerProperties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Sends the records of one change (a row change, or a key change as several: {@link KeyRestore}). */
    Sent send(List<SourceRecord> out) {
        List<Future<RecordMetadata>> sends = new ArrayList<>(out.size());
        int bytes = 0;
        for (SourceRecord sr : out) {
            byte[] key = sr.key() == null ? null : json.write(sr.keySchema(), sr.key());
            byte[] value = sr.value() == null ? null : json.write(sr.valueSchema(), sr.value());
            // counted before the send: a sink can apply a record as soon as Kafka holds it, before this thread has
            // seen the ack (so eventsSent() can briefly be below what a sink applied; eventsProduced() never is)
            counts.countProduced();
            counts.countRowRecord();
            bytes += (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
            int partition = KeyValuePartitioner.partition(sr.key(), producer.partitionsFor(sr.topic()).size());
            sends.add(producer.send(new ProducerRecord<>(sr.topic(), partition, key, value), counts.recordEnd()));
        }
        return new Sent(AllAcks.of(sends), bytes);
    }

    /** Sends a schema change's records and waits for every acknowledgement (with the records sent before them). */
    void sendNow(List<ProducerRecord<byte[], byte[]>> out) throws InterruptedException {
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        for (ProducerRecord<byte[], byte[]> pr : out) {
            counts.countProduced();
            sends.add(producer.send(pr, counts.recordEnd()));
        }
        producer.flush();
        for (int i = 0; i < sends.size(); i++) {
            try {
                sends.get(i).get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("Kafka did not acknowledge the schema change for topic " + out.get(i).topic()
                        + " partition " + out.get(i).partition() + ": " + KafkaFailure.reason(config.kafka(), e.getCause()), e.getCause());
            }
        }
    }

    /** Sends the sweep of a table whose incremental snapshot ended ({@link SnapshotSweep}) to its topic. */
    Future<RecordMetadata> sendSweep(IncrementalSnapshotMarks.Ended ended) {
        String topic = config.topicFor(ended.table());
        byte[] value = json.write(SnapshotSweep.schema(), SnapshotSweep.value(ended.table(), ended.begin()));
        log.info("capture {}: snapshot of {} ended; target rows older than its beginning ({}) are removed",
                config.name(), ended.table(), ended.begin().encode());
        counts.countProduced();
        int partition = KeyValuePartitioner.partition(null, producer.partitionsFor(topic).size());
        return producer.send(new ProducerRecord<>(topic, partition, null, value), counts.recordEnd());
    }

    /** Sends what the producer still holds now instead of after {@code linger.ms}. */
    void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
