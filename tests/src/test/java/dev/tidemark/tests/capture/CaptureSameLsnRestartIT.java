package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.tests.KafkaTopics;
import java.io.StringReader;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;

/**
 * A {@code COPY} writes many rows per WAL record, so many changes share one LSN. Debezium 3.6.1 stores the LSN of the
 * last change it was told is processed and, on restart, skips every change at that LSN (DBZ#1554, fixed upstream in
 * 3.7.0.Alpha1): a capture stopped after sending only part of such a group never sends the rest. Found by the full
 * suite ({@code LargeTransactionCaptureKillIT}: 12 rows of one COPY lost, {@code ChaosIT}: 94).
 *
 * <p>Here capture is stopped (an ordinary stop, which stores the offsets of everything sent) {@value #STOPS} times
 * while it streams one 30,000-row COPY, at points that are almost never at the end of a group, and started again. Every
 * row must reach the topic. The test also checks it exercised the case: at least one stop came while the newest LSN
 * sent so far had rows still to send.
 */
class CaptureSameLsnRestartIT {
    static final TableId T = new TableId("public", "copied_items");
    static final int ROWS = 30_000;
    static final int STOPS = 6;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aCaptureStoppedInsideAGroupOfChangesSharingOneLsnSendsTheRestAfterItsRestart() throws Exception {
        try (CaptureFixture f = new CaptureFixture("samelsn", dir, List.of(T))) {
            f.sql("CREATE TABLE public.copied_items (id bigint PRIMARY KEY, label text NOT NULL)",
                    "INSERT INTO copied_items VALUES (0, 'seed')");
            String topic = f.config().topicFor(T);
            Sidecar first = f.start(true, false);
            awaitRecords(f, first, topic, 1);
            first.close();
            assertThat(first.failure()).isEmpty();

            // one transaction, committed while capture is stopped: a backlog of 30,000 rows in groups sharing an LSN
            try (Connection c = f.pg.connect(f.database)) {
                StringBuilder rows = new StringBuilder();
                for (int id = 1; id <= ROWS; id++) {
                    rows.append(id).append("\tcopied ").append(id).append('\n');
                }
                c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY copied_items (id, label) FROM STDIN", new StringReader(rows.toString()));
            }

            List<Stop> stops = new ArrayList<>();
            for (int i = 1; i <= STOPS; i++) {
                long threshold = 1 + (long) i * ROWS / (STOPS + 1) + 1;
                Sidecar run = f.start(true, false);
                awaitRecords(f, run, topic, threshold);
                run.close();
                assertThat(run.failure()).as("capture run " + i).isEmpty();
                stops.add(Stop.of(read(f.bootstrap, topic)));
                System.out.println("stop " + i + ": " + stops.get(stops.size() - 1));
            }

            Sidecar last = f.start(true, false);
            try {
                await("every copied row on " + topic).atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                        .failFast("capture failed", () -> last.failure().isPresent())
                        .until(() -> read(f.bootstrap, topic).keys().size() == ROWS + 1);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                Records got = read(f.bootstrap, topic);
                TreeSet<Long> missing = new TreeSet<>();
                for (long id = 0; id <= ROWS; id++) {
                    if (!got.keys().contains(id)) {
                        missing.add(id);
                    }
                }
                throw new AssertionError("rows never sent to " + topic + " after " + STOPS + " restarts: " + missing.size()
                        + " of " + (ROWS + 1) + ", first " + missing.stream().limit(12).toList() + "; stops at " + stops, e);
            } finally {
                last.close();
            }
            Records all = read(f.bootstrap, topic);
            assertThat(stops).as("at least one stop came inside a group of rows sharing one LSN (else this test tested nothing)")
                    .anyMatch(s -> all.countAt(s.newestLsn()) > s.sentAtNewestLsn());
        }
    }

    private static void awaitRecords(CaptureFixture f, Sidecar s, String topic, long atLeast) {
        await(atLeast + " records on " + topic).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(20))
                .failFast("capture failed", () -> s.failure().isPresent())
                .until(() -> KafkaTopics.endOffsets(f.bootstrap, topic).values().stream().mapToLong(Long::longValue).sum() >= atLeast);
    }

    /** Where a stop left the topic: the newest LSN sent, and how many distinct rows at that LSN were sent. */
    record Stop(long newestLsn, long sentAtNewestLsn) {
        static Stop of(Records r) {
            long newest = r.lsnByKey().values().stream().mapToLong(Long::longValue).max().orElse(-1);
            return new Stop(newest, r.countAt(newest));
        }
    }

    /** The distinct keys on the topic and the LSN each was sent with (the COPY sends each key once). */
    record Records(Map<Long, Long> lsnByKey) {
        java.util.Set<Long> keys() {
            return lsnByKey.keySet();
        }

        long countAt(long lsn) {
            return lsnByKey.values().stream().filter(l -> l == lsn).count();
        }
    }

    private static Records read(String bootstrap, String topic) throws Exception {
        Map<Long, Long> lsnByKey = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> c = KafkaTopics.consumer(bootstrap)) {
            List<TopicPartition> tps = new ArrayList<>();
            for (PartitionInfo pi : c.partitionsFor(topic, Duration.ofSeconds(10))) {
                tps.add(new TopicPartition(topic, pi.partition()));
            }
            Map<TopicPartition, Long> end = c.endOffsets(tps, Duration.ofSeconds(10));
            c.assign(tps);
            c.seekToBeginning(tps);
            long remaining = end.values().stream().mapToLong(Long::longValue).sum();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (remaining > 0 && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    if (r.offset() >= end.get(new TopicPartition(r.topic(), r.partition()))) {
                        continue;
                    }
                    remaining--;
                    if (r.value() != null) {
                        JsonNode payload = JSON.readTree(r.value()).path("payload");
                        JsonNode row = payload.path("after").isObject() ? payload.path("after") : payload.path("before");
                        lsnByKey.put(row.path("id").asLong(), payload.path("source").path("lsn").asLong());
                    }
                }
            }
        }
        return new Records(lsnByKey);
    }
}
