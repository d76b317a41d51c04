package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.connector.debezium.Lsn;
import dev.tidemark.connector.debezium.OffsetsFile;
import dev.tidemark.connector.debezium.StoredOffsets;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.tests.KafkaTopics;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14: an idle captured table on a busy database must not make the slot retain WAL without bound. Two capture
 * pipelines each watch an idle table of their own database, one with heartbeats (500 ms) and one without; another
 * table of each database, not captured, churns through large updates. pgoutput sends the slots nothing for it, so only
 * the heartbeats move a slot: the slot with heartbeats confirms past all the churn, its stored offsets name a position
 * past it, and its restart point follows (its retained WAL falls back), while at that same moment the slot without
 * them still holds all of it. The heartbeats
 * reach no topic, and a later change of the idle table still arrives on both.
 */
class HeartbeatRetainedWalIT {
    private static final TableId IDLE = new TableId("public", "idle_items");
    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void heartbeatsLetTheSlotReleaseTheWalOfTablesItDoesNotCapture() throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        // one database each: logical decoding messages are not tied to a table, so a slot of the same database would
        // receive the other pipeline's heartbeats too (and move on with them)
        String beatingDb = TestInfrastructure.newDatabase("heartbeat_on");
        String silentDb = TestInfrastructure.newDatabase("heartbeat_off");
        try (Connection source = pg.connect(beatingDb); Connection silentSource = pg.connect(silentDb)) {
            for (Connection c : List.of(source, silentSource)) {
                sql(c, "CREATE TABLE public.idle_items (id int PRIMARY KEY, note text)",
                        "INSERT INTO public.idle_items VALUES (1, 'a'), (2, 'b'), (3, 'c')",
                        "CREATE TABLE public.churn (id int PRIMARY KEY, pad text)",
                        "INSERT INTO public.churn SELECT g, repeat('x', 1000) FROM generate_series(1, 2000) g");
            }
            PipelineConfig beating = config(pg, beatingDb, beatingDb, Duration.ofMillis(500));
            PipelineConfig silent = config(pg, silentDb, silentDb, Duration.ZERO);
            try (Sidecar withHeartbeats = Sidecar.start(beating, true, false, new ReplayFrom.Stored());
                 Sidecar without = Sidecar.start(silent, true, false, new ReplayFrom.Stored())) {
                for (PipelineConfig c : List.of(beating, silent)) {
                    // the slot exists with a confirmed position before capture stores its first one (the position marker
                    // it writes at start): wait for both, so the churn below starts after every start-up write
                    await("slot " + c.source().slot() + " confirms a first position and capture stored one").atMost(Duration.ofSeconds(90))
                            .pollInterval(Duration.ofMillis(200))
                            .failFast("capture failed", () -> withHeartbeats.failure().isPresent() || without.failure().isPresent())
                            .until(() -> confirmed(source, c.source().slot()) != null && storedPosition(c).isPresent());
                }
                String before = currentLsn(source);
                for (int round = 0; round < 3; round++) {
                    for (Connection c : List.of(source, silentSource)) {
                        sql(c, "UPDATE public.churn SET pad = md5(random()::text) || repeat('y', 990)");
                    }
                }
                String after = currentLsn(source);
                long churned = diff(source, after, before);
                assertThat(churned).as("WAL written by the churn").isGreaterThan(8 * MIB);

                await("the slot with heartbeats confirms past the churn (its retained WAL falls back below 1 MiB)")
                        .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                        .failFast("capture failed", () -> withHeartbeats.failure().isPresent() || without.failure().isPresent())
                        .until(() -> diff(source, currentLsn(source), confirmed(source, beating.source().slot())) < MIB
                                && diff(source, confirmed(source, beating.source().slot()), after) >= 0);
                assertThat(diff(source, currentLsn(source), confirmed(source, silent.source().slot())))
                        .as("WAL the slot without heartbeats still retains at that moment").isGreaterThanOrEqualTo(churned);
                Lsn end = Lsn.parse(after);
                assertThat(storedPosition(beating)).as("offsets stored by the pipeline with heartbeats: past the churn")
                        .hasValueSatisfying(p -> assertThat(p.compareTo(end)).isGreaterThanOrEqualTo(0));
                assertThat(storedPosition(silent)).as("offsets stored by the pipeline without heartbeats: before the churn")
                        .hasValueSatisfying(p -> assertThat(p.isAfter(Lsn.parse(before))).isFalse());

                await("the restart point of the slot with heartbeats moves past the start of the churn")
                        .atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                        .failFast("capture failed", () -> withHeartbeats.failure().isPresent() || without.failure().isPresent())
                        .until(() -> diff(source, restart(source, beating.source().slot()), before) > 0);
                assertThat(diff(source, before, restart(source, silent.source().slot())))
                        .as("the slot without heartbeats still restarts before the churn").isGreaterThanOrEqualTo(0);
                assertThat(diff(source, currentLsn(source), restart(source, silent.source().slot())))
                        .as("WAL retained by the slot without heartbeats: grown by all the churn").isGreaterThanOrEqualTo(churned);

                System.out.printf("HeartbeatRetainedWalIT: churn wrote %d bytes of WAL; retained now (current - confirmed_flush / "
                        + "current - restart_lsn): with heartbeats %d / %d, without %d / %d%n", churned,
                        diff(source, currentLsn(source), confirmed(source, beating.source().slot())),
                        diff(source, currentLsn(source), restart(source, beating.source().slot())),
                        diff(source, currentLsn(source), confirmed(source, silent.source().slot())),
                        diff(source, currentLsn(source), restart(source, silent.source().slot())));
                assertThat(topicsOf(beating)).as("topics: no heartbeat or message topic (beside capture's history topic)")
                        .containsExactlyInAnyOrder(beating.topicFor(IDLE), beating.kafka().topicPrefix() + ".__tidemark_history");
                assertThat(records(beating)).as("the idle table's topic holds its 3 snapshot rows and the sweep that ends the snapshot "
                        + "(a control record), no heartbeat").isEqualTo(3 + 1);

                for (Connection c : List.of(source, silentSource)) {
                    sql(c, "INSERT INTO public.idle_items VALUES (4, 'after the heartbeats')");
                }
                for (PipelineConfig c : List.of(beating, silent)) {
                    await("the idle table's next change on " + c.topicFor(IDLE)).atMost(Duration.ofSeconds(60))
                            .pollInterval(Duration.ofMillis(200)).until(() -> records(c) == 4 + 1);
                }
                assertThat(withHeartbeats.failure()).isEmpty();
                assertThat(without.failure()).isEmpty();
            } finally {
                sql(source, "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name IN ('"
                        + beating.source().slot() + "', '" + silent.source().slot() + "') AND NOT active");
                sql(silentSource, "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '"
                        + silent.source().slot() + "' AND NOT active");
            }
        }
    }

    private PipelineConfig config(TestInfrastructure.PgServer pg, String database, String name, Duration heartbeat) {
        return new PipelineConfig(name,
                new SourceConfig(pg.jdbcUrl(database), pg.user(), Secret.of(pg.password()), "slot_" + name, "pub_" + name,
                        List.of(IDLE), true, Duration.ofMillis(10), List.of(), heartbeat, Map.of()),
                new KafkaConfig(TestInfrastructure.kafkaBootstrap(), name, 1, (short) 1, Map.of()),
                new TargetConfig("jdbc:sqlite:" + dir.resolve(name + ".db"), null, Secret.empty(), 500,
                        SinkOptions.DEFAULT_POSITION_COLUMN, false),
                dir.resolve(name));
    }

    /** The WAL position capture's offsets file names (empty while it holds none). */
    private static java.util.Optional<Lsn> storedPosition(PipelineConfig c) {
        return OffsetsFile.read(c.offsetsFile()) instanceof StoredOffsets.Present p ? p.position() : java.util.Optional.empty();
    }

    private static Set<String> topicsOf(PipelineConfig c) {
        try (KafkaConsumer<byte[], byte[]> consumer = KafkaTopics.consumer(TestInfrastructure.kafkaBootstrap())) {
            return consumer.listTopics(Duration.ofSeconds(10)).keySet().stream()
                    .filter(t -> t.startsWith(c.kafka().topicPrefix() + ".") || t.contains("heartbeat") && t.contains(c.name()))
                    .collect(java.util.stream.Collectors.toSet());
        }
    }

    private static long records(PipelineConfig c) {
        return KafkaTopics.endOffsets(TestInfrastructure.kafkaBootstrap(), c.topicFor(IDLE)).values().stream().mapToLong(Long::longValue).sum();
    }

    private static void sql(Connection c, String... statements) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    private static String currentLsn(Connection c) throws SQLException {
        return one(c, "SELECT pg_current_wal_lsn()::text");
    }

    private static String confirmed(Connection c, String slot) throws SQLException {
        return one(c, "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = ?", slot);
    }

    private static String restart(Connection c, String slot) throws SQLException {
        return one(c, "SELECT restart_lsn::text FROM pg_replication_slots WHERE slot_name = ?", slot);
    }

    /** {@code a - b} in bytes of WAL. */
    private static long diff(Connection c, String a, String b) throws SQLException {
        return Long.parseLong(one(c, "SELECT pg_wal_lsn_diff(?::pg_lsn, ?::pg_lsn)::bigint::text", a, b));
    }

    private static String one(Connection c, String sql, String... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setString(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
