package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.tests.KafkaTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sink started before capture (separate processes, any order) must not create the topics: its consumer's metadata
 * requests made the broker auto-create them with one partition, so capture then found topics with the wrong partition
 * count and refused to start (found by ChaosIT in the full suite after run learnt to check partition counts). The sink
 * waits for the topics; capture creates them with {@code kafka.partitions} and every row arrives.
 */
class SinkStartedBeforeCaptureIT {
    static final TableId T = new TableId("public", "early_items");

    @TempDir
    Path dir;

    @Test
    void aSinkStartedFirstWaitsForTheTopicsInsteadOfCreatingThem() throws Exception {
        try (CaptureFixture f = new CaptureFixture("sinkfirst", dir, List.of(T))) {
            f.sql("CREATE TABLE public.early_items (id int PRIMARY KEY, note text)",
                    "INSERT INTO early_items SELECT g, 'n' || g FROM generate_series(1, 50) g");
            String topic = f.config().topicFor(T);
            Sidecar sink = f.start(false, true);
            // the sink's consumer joined its group: it has asked the broker for the topics' metadata by then
            await("sink consumer in group " + f.name).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .failFast("sink failed", () -> sink.failure().isPresent())
                    .until(() -> groupMembers(f.bootstrap, f.name) > 0);
            assertThat(topicExists(f.bootstrap, topic)).as("topic " + topic + " created by the sink").isFalse();

            Sidecar capture = f.start(true, false);
            f.awaitTargetEqual(sink, "id");
            assertThat(capture.failure()).as("capture failure").isEmpty();
            assertThat(KafkaTopics.endOffsets(f.bootstrap, topic)).as("partitions of " + topic).hasSize(2);
        }
    }

    private static int groupMembers(String bootstrap, String group) throws Exception {
        java.util.Properties p = new java.util.Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            return admin.describeConsumerGroups(List.of(group)).all().get().get(group).members().size();
        }
    }

    private static boolean topicExists(String bootstrap, String topic) throws Exception {
        java.util.Properties p = new java.util.Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            return admin.listTopics().names().get().contains(topic);
        }
    }
}
