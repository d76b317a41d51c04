package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.tests.TestInfrastructure;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 9, item 9, the rest of static membership: a static member that stops gracefully leaves the group at once (its
 * partitions move to the other member long before its session, here 45 s, would expire), and two running members that
 * were given the same member id do not silently share it: the one that is fenced stops with a line saying so.
 */
class StaticMembershipIT {
    TargetDatabase target;
    SinkLoopFixture fx;
    String pipeline;

    @BeforeEach
    void setUp() throws Exception {
        target = TargetDatabase.sqlite();
        fx = new SinkLoopFixture(TestInfrastructure.kafkaBootstrap(), "static_" + System.nanoTime(), 4, target, 19, 200);
        pipeline = "static-" + System.nanoTime();
        fx.produce(200);
    }

    @AfterEach
    void tearDown() throws Exception {
        target.close();
    }

    private KafkaSinkRunner member(String id) throws Exception {
        return fx.start(pipeline, new ReplayFrom.Stored(), Map.of("session.timeout.ms", "45000"), new Properties(), s -> s.withMemberId(id));
    }

    @Test
    void aStaticMemberThatStopsLeavesTheGroupAtOnce() throws Exception {
        KafkaSinkRunner a = member("a");
        KafkaSinkRunner b = member("b");
        try {
            await("both static members share the 4 partitions").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .failFast("a member failed", () -> a.failure().isPresent() || b.failure().isPresent())
                    .until(() -> !a.assignment().isEmpty() && !b.assignment().isEmpty() && a.assignment().size() + b.assignment().size() == 4);
            a.close();
            assertThat(a.failure()).isEmpty();
            await("member b takes over all partitions well before a's 45 s session would expire").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(50))
                    .failFast("member b failed", () -> b.failure().isPresent())
                    .until(() -> b.assignment().size() == 4);
            fx.produce(100);
            Map<Integer, Long> end = fx.endOffsets();
            await("member b applies everything").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .failFast("member b failed", () -> b.failure().isPresent())
                    .until(() -> fx.stored(pipeline).equals(end));
            assertThat(fx.rows()).isEqualTo(fx.expected);
        } finally {
            a.close();
            b.close();
        }
    }

    @Test
    void twoRunningMembersWithOneIdDoNotShareItSilently() throws Exception {
        KafkaSinkRunner first = member("same");
        KafkaSinkRunner second = null;
        try {
            await("the first member is assigned its partitions").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .failFast("first member failed", () -> first.failure().isPresent())
                    .until(() -> first.assignment().size() == 4);
            second = member("same");
            KafkaSinkRunner joined = second;
            await("one of the two members stops").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> first.isFinished() || joined.isFinished());
            KafkaSinkRunner stopped = first.isFinished() ? first : joined;
            assertThat(stopped.failure()).as("why the fenced member stopped").isPresent();
            assertThat(stopped.failure().get().getMessage())
                    .contains("group.instance.id " + pipeline + "-same").contains("--member-id").doesNotContain("\n");
        } finally {
            first.close();
            if (second != null) {
                second.close();
            }
        }
    }
}
