package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stop the process, change the source, start again: exactly the new changes arrive (nothing lost, nothing
 * re-snapshotted), because Debezium's offsets and the sink's target offsets both survived the stop.
 */
class CdcRestartIT {
    static final TableId T = new TableId("public", "accounts");

    @TempDir
    Path dir;

    @Test
    void restartDeliversExactlyTheChangesMadeWhileStopped() throws Exception {
        try (CdcFixture f = new CdcFixture("restart", dir, List.of(T))) {
            f.sql("CREATE TABLE public.accounts (id int PRIMARY KEY, owner text, balance numeric(12,2))",
                    "INSERT INTO accounts SELECT g, 'owner ' || g, g * 1.25 FROM generate_series(1, 50) g");
            Sidecar first = f.startPipeline();
            f.awaitEqual(first, T, "target.db", "id");
            first.close();
            String topic = f.config(f.name, "target.db").topicFor(T);
            Map<TopicPartition, Long> endBefore = KafkaTopics.endOffsets(f.bootstrap, topic);

            // changed while nothing runs: 10 inserts, 5 updates, 5 deletes
            f.sql("INSERT INTO accounts SELECT g, 'late ' || g, g FROM generate_series(51, 60) g",
                    "UPDATE accounts SET balance = balance + 100 WHERE id BETWEEN 1 AND 5",
                    "DELETE FROM accounts WHERE id BETWEEN 46 AND 50");

            Sidecar second = f.startPipeline();
            f.awaitEqual(second, T, "target.db", "id");
            second.close();

            List<String> ops = KafkaTopics.opsSince(f.bootstrap, endBefore);
            assertThat(ops).doesNotContain("r");
            assertThat(ops.stream().filter("c"::equals).count()).isEqualTo(10);
            assertThat(ops.stream().filter("u"::equals).count()).isEqualTo(5);
            assertThat(ops.stream().filter("d"::equals).count()).isEqualTo(5);
            assertThat(ops.stream().filter("tombstone"::equals).count()).isEqualTo(5);
            assertThat(ops).hasSize(25);
        }
    }
}
