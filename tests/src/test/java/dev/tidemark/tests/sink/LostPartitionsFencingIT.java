package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.tests.TestInfrastructure;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 9, item 14: a member that lost its partitions must not write offsets (or rows) as if it still owned them.
 *
 * <p>A real lost member against a real broker and a real PostgreSQL target: member A applies a 1-partition topic; a
 * statement trigger on the target table makes every write of A's connection (and only A's, by
 * {@code application_name}) wait for an advisory lock the test holds, so A's apply blocks past
 * {@code max.poll.interval.ms}; the broker removes A from the group and member B takes the partition over and
 * applies everything after it. Then the lock is released and A's stale batch (and the one it had polled next) reaches
 * the target. A trigger on {@code tidemark_offsets} records every change of the stored offset: it must never move
 * backwards, and the target must converge to the state every event describes with every record applied.
 */
class LostPartitionsFencingIT {
    static final long GATE = 4_242_001L;
    TargetDatabase target;
    SinkLoopFixture fx;
    String pipeline;
    final List<KafkaSinkRunner> runners = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        target = TargetDatabase.postgres();
        fx = new SinkLoopFixture(TestInfrastructure.kafkaBootstrap(), "lost_" + System.nanoTime(), 1, target, 14, 300);
        pipeline = "lost-" + System.nanoTime();
    }

    @AfterEach
    void tearDown() throws Exception {
        for (KafkaSinkRunner r : runners) {
            r.close();
        }
        target.close();
    }

    private KafkaSinkRunner member(String name) throws Exception {
        Properties connection = new Properties();
        connection.setProperty("ApplicationName", name);
        // a short poll interval so the blocked member is removed from the group quickly
        KafkaSinkRunner r = fx.start(pipeline, new ReplayFrom.Stored(),
                Map.of("client.id", name, "max.poll.interval.ms", "6000", "session.timeout.ms", "6000", "heartbeat.interval.ms", "1000"),
                connection);
        runners.add(r);
        return r;
    }

    private void awaitApplied(String what, KafkaSinkRunner... members) {
        Map<Integer, Long> end = fx.endOffsets();
        await(what + ": stored offsets reach the end " + end).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                .failFast("a member failed", () -> java.util.Arrays.stream(members).anyMatch(m -> m.failure().isPresent()))
                .until(() -> fx.stored(pipeline).equals(end));
    }

    @Test
    void aMemberThatLostItsPartitionNeverMovesTheStoredOffsetBackwards() throws Exception {
        fx.produce(300);
        KafkaSinkRunner a = member("member-a");
        awaitApplied("member A applies phase 1", a);
        try (Connection admin = target.connect(); Statement s = admin.createStatement()) {
            s.execute("CREATE TABLE offset_moves (previous BIGINT, next BIGINT, app TEXT, at TIMESTAMPTZ DEFAULT clock_timestamp())");
            s.execute("CREATE FUNCTION record_move() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                    + "INSERT INTO offset_moves (previous, next, app) VALUES (OLD.next_offset, NEW.next_offset, current_setting('application_name')); "
                    + "RETURN NEW; END $$");
            s.execute("CREATE TRIGGER record_move AFTER UPDATE ON tidemark_offsets FOR EACH ROW EXECUTE FUNCTION record_move()");
            s.execute("CREATE FUNCTION gate() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                    + "IF current_setting('application_name') = 'member-a' THEN PERFORM pg_advisory_xact_lock_shared(" + GATE + "); END IF; "
                    + "RETURN NULL; END $$");
            s.execute("CREATE TRIGGER gate BEFORE INSERT OR UPDATE OR DELETE ON items FOR EACH STATEMENT EXECUTE FUNCTION gate()");

            s.execute("SELECT pg_advisory_lock(" + GATE + ")"); // A's next write blocks
            long blockedFrom = fx.stored(pipeline).get(0);
            fx.produce(600);
            await("member A's apply is blocked at the gate").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> SinkLoopFixture.count(admin, "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                            + "WHERE l.locktype = 'advisory' AND NOT l.granted AND a.application_name = 'member-a'") > 0);
            KafkaSinkRunner b = member("member-b");
            awaitApplied("member B takes the partition over from the blocked member A and applies phase 2", b);
            assertThat(fx.stored(pipeline).get(0)).isGreaterThan(blockedFrom);
            s.execute("SELECT pg_advisory_unlock(" + GATE + ")"); // A's stale batch reaches the target now

            fx.produce(300);
            awaitApplied("the group applies phase 3", a, b);
            List<String> backwards = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT previous, next, app FROM offset_moves WHERE next < previous ORDER BY at")) {
                while (rs.next()) {
                    backwards.add(rs.getString(3) + " moved the stored offset from " + rs.getLong(1) + " back to " + rs.getLong(2));
                }
            }
            assertThat(backwards).as("stored offset of partition 0 moved backwards").isEmpty();
            assertThat(fx.rows()).as("target equals the state the events describe").isEqualTo(fx.expected);
            assertThat(a.fencedBatches()).as("batches of member A rolled back because member B had moved the offset").isPositive();
            assertThat(a.failure()).as("member A's failure").isEmpty();
            assertThat(b.failure()).as("member B's failure").isEmpty();
        }
    }
}
