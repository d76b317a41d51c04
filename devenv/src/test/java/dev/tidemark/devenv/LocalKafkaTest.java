package dev.tidemark.devenv;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class LocalKafkaTest {

    @TempDir
    Path tempDir;

    @Test
    @Timeout(180)
    void startsABrokerThatRoundTripsARecordAndRemovesItOnClose() throws Exception {
        Path baseDir = tempDir.resolve("kafka");
        LocalKafka kafka = LocalKafka.start(baseDir);
        long pid = kafka.pid();
        try {
            assertThat(kafka.bootstrapServers()).startsWith("127.0.0.1:");
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);
            String topic = "local-kafka-test";
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                    ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>(topic, "k", "hello")).get(30, TimeUnit.SECONDS);
            }
            assertThat(consumeOne(kafka.bootstrapServers(), topic)).isEqualTo("hello");
        } finally {
            kafka.close();
        }
        assertThat(baseDir).doesNotExist();
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        assertThat(handle.map(ProcessHandle::isAlive).orElse(false)).isFalse();
        kafka.close(); // a second close is a no-op
    }

    private static String consumeOne(String bootstrapServers, String topic) {
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(Set.of(partition));
            consumer.seekToBeginning(Set.of(partition));
            List<String> values = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (values.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    values.add(record.value());
                }
            }
            assertThat(values).as("records read from %s", topic).isNotEmpty();
            return values.get(0);
        }
    }
}
