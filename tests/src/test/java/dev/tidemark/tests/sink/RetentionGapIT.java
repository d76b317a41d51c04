package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.tests.TestInfrastructure;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 9, item 10: Kafka retention must never make the sink skip records silently. Retention is reproduced exactly
 * as the broker does it, by moving a partition's log start offset ({@code Admin.deleteRecords}) past records the
 * target has not applied. The sink must stop naming topic, partition, stored offset and earliest offset — it must not
 * jump to the earliest retained record ({@code auto.offset.reset=earliest} did) — and a target that never read the
 * topic must not silently start mid-stream either.
 */
class RetentionGapIT {
    TargetDatabase target;
    SinkLoopFixture fx;

    @BeforeEach
    void setUp() throws Exception {
        target = TargetDatabase.sqlite();
        fx = new SinkLoopFixture(TestInfrastructure.kafkaBootstrap(), "retention_" + System.nanoTime(), 2, target, 3, 300);
    }

    @AfterEach
    void tearDown() throws Exception {
        target.close();
    }

    private void deleteRecordsBefore(int partition, long offset) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", fx.bootstrap))) {
            admin.deleteRecords(Map.of(new TopicPartition(fx.topic, partition), RecordsToDelete.beforeOffset(offset)))
                    .all().get(30, TimeUnit.SECONDS);
        }
        assertThat(fx.startOffsets().get(partition)).as("log start offset of partition " + partition).isEqualTo(offset);
    }

    private void drain(String pipeline) throws Exception {
        KafkaSinkRunner runner = fx.start(pipeline, new ReplayFrom.Stored(), Map.of());
        try {
            Map<Integer, Long> end = fx.endOffsets();
            await("sink " + pipeline + " applies " + fx.topic + " to its end " + end).atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .failFast("sink failed", () -> runner.failure().isPresent())
                    .until(() -> fx.stored(pipeline).equals(end));
        } finally {
            runner.close();
        }
    }

    @Test
    void storedOffsetBelowTheLogStartStopsTheSinkNamingBothOffsets() throws Exception {
        String pipeline = "gap-" + System.nanoTime();
        fx.produce(400);
        drain(pipeline);
        Map<Integer, Long> applied = fx.stored(pipeline);
        fx.produce(400); // not applied by the target yet ...
        long earliest = fx.endOffsets().get(0) - 20;
        deleteRecordsBefore(0, earliest); // ... and then removed by "retention"
        assertThat(earliest).as("retention passed the stored offset of partition 0").isGreaterThan(applied.get(0));

        KafkaSinkRunner runner = fx.start(pipeline, new ReplayFrom.Stored(), Map.of());
        try {
            await("the sink stops, or moves partition 0 past its stored offset " + applied.get(0)).atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> runner.failure().isPresent() || fx.stored(pipeline).get(0) > applied.get(0));
            assertThat(fx.stored(pipeline).get(0))
                    .as("stored offset of partition 0: the sink must not jump over the " + (earliest - applied.get(0))
                            + " records retention deleted before the target applied them")
                    .isEqualTo(applied.get(0));
            await("the sink stops").atMost(Duration.ofSeconds(30)).until(runner::isFinished);
            assertThat(runner.failure()).as("why the sink stopped").isPresent();
            assertThat(runner.failure().get().getMessage())
                    .contains("topic " + fx.topic + " partition 0")
                    .contains("stored offset " + applied.get(0))
                    .contains("earliest offset " + earliest)
                    .contains("reconcile")
                    .doesNotContain("\n");
        } finally {
            runner.close();
        }
    }

    @Test
    void aTargetThatNeverReadTheTopicIsNotStartedMidStreamSilently() throws Exception {
        fx.produce(300);
        long earliest = 40;
        deleteRecordsBefore(1, earliest);
        String pipeline = "fresh-" + System.nanoTime();
        KafkaSinkRunner runner = fx.start(pipeline, new ReplayFrom.Stored(), Map.of());
        try {
            await("the sink stops, or applies partition 1 from its earliest retained offset").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> runner.failure().isPresent() || fx.stored(pipeline).containsKey(1));
            assertThat(fx.stored(pipeline)).as("stored offsets: nothing applied from partition 1 after records 0.." + (earliest - 1)
                    + " were deleted before this target read them").doesNotContainKey(1);
            await("the sink stops").atMost(Duration.ofSeconds(30)).until(runner::isFinished);
            assertThat(runner.failure()).as("why the sink stopped").isPresent();
            assertThat(runner.failure().get().getMessage())
                    .contains("topic " + fx.topic + " partition 1")
                    .contains("earliest offset " + earliest)
                    .doesNotContain("\n");
        } finally {
            runner.close();
        }
    }

    @Test
    void anExplicitlyAcceptedGapStartsAtTheEarliestRetainedOffset() throws Exception {
        fx.produce(300);
        long earliest = 40;
        deleteRecordsBefore(1, earliest);
        String pipeline = "accepted-" + System.nanoTime();
        Map<Integer, Long> end = fx.endOffsets();
        KafkaSinkRunner runner = fx.start(pipeline, new ReplayFrom.Stored(), Map.of(), new java.util.Properties(),
                s -> s.withSkipChoices(true, false));
        try {
            await("with --accept-retention-gap the sink applies both partitions to their end " + end).atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .failFast("sink failed", () -> runner.failure().isPresent())
                    .until(() -> fx.stored(pipeline).equals(end));
            assertThat(runner.eventsApplied()).as("records applied: all but the " + earliest + " deleted ones")
                    .isEqualTo(end.get(0) + end.get(1) - earliest);
        } finally {
            runner.close();
        }
        assertThat(runner.failure()).isEmpty();
    }
}
