package dev.tidemark.tests.sink;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/** Topics and producers for the sink ITs, against the test broker. */
final class TestTopics {
    private TestTopics() {
    }

    static void create(String bootstrap, String topic, int partitions) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
    }

    /**
     * Producer settings for test data whose every record must land: acks from all replicas, generous timeouts. Not
     * idempotent, one request in flight: on a loaded 2-core machine the test broker has been seen to answer a
     * retried first batch with OutOfOrderSequenceException; a plain retry can at worst duplicate a record, which
     * changes nothing in these tests (same key, same event; counts are read back from the topic).
     */
    static Map<String, Object> ackedProducer(String bootstrap) {
        return Map.of("bootstrap.servers", bootstrap, "enable.idempotence", "false", "acks", "all",
                "max.in.flight.requests.per.connection", "1", "request.timeout.ms", "60000", "delivery.timeout.ms", "180000");
    }
}
