package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14: {@code tidemark drop} on a real PostgreSQL and Kafka. While capture runs it refuses naming the slot (exit
 * 3); once stopped, without {@code --yes} it lists the slot (with the WAL it retains), the publication, the topic and
 * the offsets files and removes nothing (exit 2); with {@code --yes --topics} it removes all of them (exit 0), and a
 * second run says nothing is left (exit 0). The target keeps its rows.
 */
class DropCommandIT {
    static final TableId T = new TableId("public", "drop_items");

    @TempDir
    Path dir;

    @Test
    void dropRemovesSlotPublicationTopicsAndOffsetsOfAStoppedPipelineOnlyWithYes() throws Exception {
        try (CaptureFixture f = new CaptureFixture("drop", dir, List.of(T))) {
            f.sql("CREATE TABLE public.drop_items (id int PRIMARY KEY, note text)",
                    "INSERT INTO public.drop_items SELECT g, 'n' || g FROM generate_series(1, 50) g");
            Path yaml = f.writeYaml();
            Sidecar running = f.start(true, true);
            f.awaitTargetEqual(running, "id");

            Path log = dir.resolve("drop-running.log");
            assertThat(f.runToEnd(log, "drop", "--config", yaml.toString(), "--yes", "--topics")).as(Files.readString(log)).isEqualTo(3);
            assertThat(CaptureFixture.errorLines(log)).singleElement().asString()
                    .contains("replication slot \"" + f.slot() + "\" is active").contains("nothing removed");
            assertThat(f.slotExists()).isTrue();

            running.close();
            assertThat(running.failure()).isEmpty();
            Path stateDir = dir.resolve("state");
            assertThat(stateDir.resolve(f.name + ".offsets")).exists();

            log = dir.resolve("drop-dry.log");
            assertThat(f.runToEnd(log, "drop", "--config", yaml.toString(), "--topics")).as(Files.readString(log)).isEqualTo(2);
            String dry = Files.readString(log);
            assertThat(dry).contains("replication slot \"" + f.slot() + "\" (retains ").contains("publication \"pub_" + f.name + "\"")
                    .contains("topic " + f.config().topicFor(T)).contains("capture offsets file " + stateDir.resolve(f.name + ".offsets"));
            assertThat(CaptureFixture.errorLines(log)).containsExactly("tidemark: nothing removed: run again with --yes to remove these");
            assertThat(f.slotExists()).as("dry run removes nothing").isTrue();
            assertThat(topics(f)).contains(f.config().topicFor(T));

            log = dir.resolve("drop-yes.log");
            assertThat(f.runToEnd(log, "drop", "--config", yaml.toString(), "--yes", "--topics")).as(Files.readString(log)).isZero();
            assertThat(Files.readString(log)).contains("dropped replication slot \"" + f.slot() + "\"")
                    .contains("dropped publication \"pub_" + f.name + "\"").contains("deleted topic " + f.config().topicFor(T))
                    .contains("deleted capture offsets file " + stateDir.resolve(f.name + ".offsets"));
            assertThat(f.slotExists()).as("slot dropped").isFalse();
            assertThat(publicationExists(f)).as("publication dropped").isFalse();
            assertThat(topics(f)).doesNotContain(f.config().topicFor(T));
            try (var files = Files.list(stateDir)) {
                assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(f.name + ".offsets"));
            }
            assertThat(f.targetEqualsSource("id")).as("the target is left as it is").isTrue();

            log = dir.resolve("drop-again.log");
            assertThat(f.runToEnd(log, "drop", "--config", yaml.toString(), "--yes")).as(Files.readString(log)).isZero();
            assertThat(Files.readString(log)).contains("pipeline " + f.name + ": nothing to remove");
        }
    }

    private static boolean publicationExists(CaptureFixture f) throws Exception {
        try (Statement s = f.source.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_publication WHERE pubname = 'pub_" + f.name + "'")) {
            rs.next();
            return rs.getInt(1) > 0;
        }
    }

    private static Set<String> topics(CaptureFixture f) {
        try (KafkaConsumer<byte[], byte[]> c = dev.tidemark.tests.KafkaTopics.consumer(TestInfrastructure.kafkaBootstrap())) {
            return c.listTopics(java.time.Duration.ofSeconds(10)).keySet();
        }
    }
}
