package dev.tidemark.sink.kafka;

import dev.tidemark.event.PoisonEventException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes records that can never be applied to the pipeline's dead-letter topic: the record's key and value as they
 * were, the reason and the source topic, partition, offset and pipeline in headers. {@link #send} returns only once
 * Kafka acknowledged the dead letter, so the caller may then move the offset past it. The producer is created on
 * first use. Apply thread only; {@link #close()} from the thread that ends the runner.
 */
final class DeadLetters implements AutoCloseable {
    private final SinkSettings settings;
    private KafkaProducer<byte[], byte[]> producer;

    DeadLetters(SinkSettings settings) {
        this.settings = settings;
    }

    /** @throws PoisonEventException naming the record when the dead letter is not acknowledged */
    void send(Pending p, String why) {
        ProducerRecord<byte[], byte[]> dead = new ProducerRecord<>(settings.deadLetterTopic(), null, p.record().key(), p.record().value());
        dead.headers().add("tidemark.error", utf8(why));
        dead.headers().add("tidemark.source.topic", utf8(p.record().topic()));
        dead.headers().add("tidemark.source.partition", utf8(Integer.toString(p.record().partition())));
        dead.headers().add("tidemark.source.offset", utf8(Long.toString(p.record().offset())));
        dead.headers().add("tidemark.pipeline", utf8(settings.groupId()));
        if (producer == null) {
            producer = SinkConsumerConfig.deadLetterProducer(settings);
        }
        try {
            producer.send(dead).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PoisonEventException(p.origin(), "interrupted while writing to dead-letter topic " + settings.deadLetterTopic(), e);
        } catch (ExecutionException e) {
            throw new PoisonEventException(p.origin(), "dead-letter topic " + settings.deadLetterTopic() + " did not acknowledge: "
                    + e.getCause().getMessage(), e.getCause());
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
