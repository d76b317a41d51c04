package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.tests.TestInfrastructure;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 9, item 13: {@code --replay-from} rewinds, it never moves a partition forward past records the target has not
 * applied. The target first applies a prefix of the topic; more records follow that it has not applied; then the sink
 * is started with a replay point past its stored offsets (explicit offsets, and a timestamp later than every record).
 * Each partition must start at the earlier of the replay point and the stored offset, so the target ends equal to the
 * state every event describes.
 */
class ReplayNeverSkipsIT {
    TargetDatabase target;
    SinkLoopFixture fx;
    String pipeline;

    @BeforeEach
    void setUp() throws Exception {
        target = TargetDatabase.sqlite();
        fx = new SinkLoopFixture(TestInfrastructure.kafkaBootstrap(), "replay_forward_" + System.nanoTime(), 2, target, 13, 400);
        pipeline = "replay-forward-" + System.nanoTime();
        fx.produce(600);
        run(new ReplayFrom.Stored());
        fx.produce(600); // not applied yet
    }

    @AfterEach
    void tearDown() throws Exception {
        target.close();
    }

    /** Runs the sink until it stored the topic's end offsets (or 60 s passed), then stops it. */
    private KafkaSinkRunner run(ReplayFrom replay) throws Exception {
        Map<Integer, Long> end = fx.endOffsets();
        KafkaSinkRunner runner = fx.start(pipeline, replay, Map.of());
        try {
            await("sink applies " + fx.topic + " to its end " + end + " starting from " + replay).atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .failFast("sink failed", () -> runner.failure().isPresent())
                    .until(() -> fx.stored(pipeline).equals(end) && runner.eventsApplied() > 0);
        } finally {
            runner.close();
        }
        assertThat(runner.failure()).isEmpty();
        return runner;
    }

    @Test
    void offsetsPastTheStoredOffsetsDoNotSkipUnappliedRecords() throws Exception {
        Map<Integer, Long> stored = fx.stored(pipeline);
        Map<Integer, Long> end = fx.endOffsets();
        assertThat(end.get(0)).as("unapplied records on partition 0").isGreaterThan(stored.get(0) + 50);
        KafkaSinkRunner replay = run(ReplayFrom.parse("0:" + (end.get(0) - 10) + ",1:" + end.get(1)));
        assertThat(replay.eventsApplied()).as("records applied: every record after the stored offsets " + stored)
                .isGreaterThanOrEqualTo(end.get(0) - stored.get(0) + end.get(1) - stored.get(1));
        assertThat(fx.rows()).as("target equals the state the events describe").isEqualTo(fx.expected);
    }

    @Test
    void aTimestampWithNoLaterRecordResumesAtTheStoredOffsets() throws Exception {
        Map<Integer, Long> stored = fx.stored(pipeline);
        Map<Integer, Long> end = fx.endOffsets();
        KafkaSinkRunner replay = run(new ReplayFrom.Since(Instant.now().plus(1, ChronoUnit.HOURS)));
        assertThat(replay.eventsApplied()).as("records applied: every record after the stored offsets " + stored)
                .isEqualTo(end.get(0) - stored.get(0) + end.get(1) - stored.get(1));
        assertThat(fx.rows()).as("target equals the state the events describe").isEqualTo(fx.expected);
    }
}
