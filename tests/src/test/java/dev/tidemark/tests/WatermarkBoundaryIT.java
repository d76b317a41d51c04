package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.watermark.Cursor;
import dev.tidemark.connector.watermark.RunResult;
import dev.tidemark.connector.watermark.WatermarkJob;
import dev.tidemark.connector.watermark.WatermarkPoller;
import dev.tidemark.connector.watermark.WatermarkTable;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The boundaries where query-based capture classically loses or repeats rows: equal timestamps across a chunk
 * boundary and a stop, a long transaction that stamps its row before a run and commits after it, and fractional
 * seconds at the watermark.
 */
class WatermarkBoundaryIT {
    static final TableId EVENTS = new TableId("public", "events");
    final TestInfrastructure.PgServer pg = TestInfrastructure.postgres();

    @TempDir
    Path dir;

    /**
     * Ten rows share one timestamp; chunks of four; the first run stops after one chunk, the second resumes the same
     * window after the last committed key. Then two more rows arrive with that same timestamp (a coarse or
     * transaction-start clock) and one a microsecond later. The timestamp+id cursor picks all three up; a plain
     * timestamp cursor, which can only continue strictly above the timestamp, loses the two.
     */
    @Test
    void equalTimestampsAcrossAChunkBoundaryAndAStopLoseNothingWithTheTieBreak() throws Exception {
        String db = TestInfrastructure.newDatabase("wm_ties");
        try (Connection src = pg.connect(db); Statement s = src.createStatement()) {
            s.execute("CREATE TABLE events (id bigint PRIMARY KEY, stamp timestamptz(6) NOT NULL, payload text)");
            s.execute("INSERT INTO events SELECT g, '2024-05-01 10:00:00.5+00', 'row ' || g FROM generate_series(1, 10) g");
            WatermarkTable tied = WatermarkTable.of(EVENTS, List.of("id"), new Cursor.TimestampId("stamp", "id"))
                    .withSettle(Duration.ZERO).withChunkSize(4);
            WatermarkTable plain = WatermarkTable.of(EVENTS, List.of("id"), new Cursor.Timestamp("stamp"))
                    .withSettle(Duration.ZERO).withChunkSize(4);
            Path tiedTarget = dir.resolve("tied.db");
            Path plainTarget = dir.resolve("plain.db");
            try (WatermarkJob a = WatermarkJobs.direct(pg.jdbcUrl(db), pg.user(), pg.password(), tiedTarget, tied);
                 WatermarkJob b = WatermarkJobs.direct(pg.jdbcUrl(db), pg.user(), pg.password(), plainTarget, plain)) {
                WatermarkPoller.Request stopAfterFirstChunk = WatermarkPoller.Request.incremental().stoppingWhen(() -> true);
                RunResult a1 = a.run(tied, stopAfterFirstChunk);
                RunResult b1 = b.run(plain, stopAfterFirstChunk);
                assertThat(a1.status()).isEqualTo("stopped");
                assertThat(a1.rows()).isEqualTo(4);
                assertThat(WatermarkJobs.keys(tiedTarget, "events", "id")).containsExactly(1L, 2L, 3L, 4L);
                assertThat(a.control().read(tied.name()).orElseThrow().inProgress()).as("progress is stored").isNotNull();

                RunResult a2 = a.run(tied, WatermarkPoller.Request.incremental());
                RunResult b2 = b.run(plain, WatermarkPoller.Request.incremental());
                assertThat(a2.mode()).isEqualTo("resumed");
                assertThat(a2.rows()).as("the rest of the window, after key 4").isEqualTo(6);
                assertThat(b1.rows() + b2.rows()).isEqualTo(10);
                assertThat(a.control().read(tied.name()).orElseThrow().inProgress()).isNull();
                assertThat(a2.watermark().tieBreak()).isEqualTo(10L);

                s.execute("INSERT INTO events VALUES (11, '2024-05-01 10:00:00.5+00', 'same stamp, after the run'),"
                        + " (12, '2024-05-01 10:00:00.5+00', 'same stamp, after the run'), (13, '2024-05-01 10:00:00.500001+00', 'later')");
                RunResult a3 = a.run(tied, WatermarkPoller.Request.incremental());
                RunResult b3 = b.run(plain, WatermarkPoller.Request.incremental());
                assertThat(a3.rows()).isEqualTo(3);
                assertThat(a1.rows() + a2.rows() + a3.rows()).as("no row read twice").isEqualTo(13);
                assertThat(WatermarkJobs.keys(tiedTarget, "events", "id"))
                        .containsExactlyElementsOf(LongStream.rangeClosed(1, 13).boxed().toList());
                assertThat(b3.rows()).isEqualTo(1);
                assertThat(WatermarkJobs.keys(plainTarget, "events", "id")).as("a plain timestamp cursor loses the ties")
                        .doesNotContain(11L, 12L).contains(13L);
            }
        }
    }

    /**
     * Connection A begins, stamps its row with its transaction's start time ({@code now()}) and stays open; connection
     * B commits a row stamped later. A run now sees B's row but not A's, and without a settle delay moves the
     * watermark past A's stamp: when A commits, its row lies below the watermark forever. With a settle delay the
     * upper bound stays behind the database clock by the delay, below A's stamp, and A's row is copied by the next
     * run after it committed. (The second run uses no delay: it stands for a run once the delay has elapsed; the
     * order of events is fixed by the two connections, not by timing.)
     */
    @Test
    void aLongTransactionIsLostWithoutSettleDelayAndCaughtWithIt() throws Exception {
        String db = TestInfrastructure.newDatabase("wm_longtx");
        try (Connection b = pg.connect(db); Connection a = pg.connect(db); Statement sb = b.createStatement()) {
            sb.execute("CREATE TABLE events (id bigint PRIMARY KEY, stamp timestamptz(6) NOT NULL, payload text)");
            sb.execute("INSERT INTO events SELECT g, '2020-01-01 00:00:00+00', 'old' FROM generate_series(1, 3) g");
            WatermarkTable noDelay = WatermarkTable.of(EVENTS, List.of("id"), new Cursor.Timestamp("stamp")).withSettle(Duration.ZERO);
            WatermarkTable delayed = noDelay.withSettle(Duration.ofHours(1));
            Path lossy = dir.resolve("no-settle.db");
            Path safe = dir.resolve("settle.db");
            try (WatermarkJob x = WatermarkJobs.direct(pg.jdbcUrl(db), pg.user(), pg.password(), lossy, noDelay);
                 WatermarkJob y = WatermarkJobs.direct(pg.jdbcUrl(db), pg.user(), pg.password(), safe, delayed)) {
                a.setAutoCommit(false);
                Instant stampA;
                try (Statement sa = a.createStatement()) {
                    sa.execute("INSERT INTO events VALUES (100, now(), 'long transaction')");
                    try (ResultSet rs = sa.executeQuery("SELECT now()")) {
                        rs.next();
                        stampA = rs.getObject(1, OffsetDateTime.class).toInstant();
                    }
                }
                sb.execute("INSERT INTO events VALUES (101, clock_timestamp(), 'short transaction, committed first')");

                RunResult x1 = x.run(noDelay, WatermarkPoller.Request.incremental());
                RunResult y1 = y.run(delayed, WatermarkPoller.Request.incremental());
                assertThat(x1.rows()).isEqualTo(4);
                assertThat(x1.watermark().primary().render()).as("moved past A's stamp")
                        .isGreaterThan(new dev.tidemark.jdbc.CursorValue.Zoned(stampA).render());
                assertThat(y1.rows()).as("only the rows older than the delay").isEqualTo(3);
                assertThat(y1.watermark().primary().render()).as("stays below A's stamp")
                        .isLessThan(new dev.tidemark.jdbc.CursorValue.Zoned(stampA).render());

                a.commit();
                x.run(noDelay, WatermarkPoller.Request.incremental());
                RunResult y2 = y.run(delayed.withSettle(Duration.ZERO), WatermarkPoller.Request.incremental());
                assertThat(y2.rows()).isEqualTo(2);
                assertThat(WatermarkJobs.keys(lossy, "events", "id")).as("lost without a settle delay").doesNotContain(100L).contains(101L);
                assertThat(WatermarkJobs.keys(safe, "events", "id")).as("caught with it").contains(1L, 2L, 3L, 100L, 101L);
            }
        }
    }

    /** Microsecond neighbours of the watermark on PostgreSQL: the watermark round-trips exactly; nothing dropped, nothing repeated. */
    @Test
    void fractionalSecondsAtTheBoundaryAreNeitherDroppedNorRepeatedOnPostgres() throws Exception {
        String db = TestInfrastructure.newDatabase("wm_frac");
        try (Connection src = pg.connect(db); Statement s = src.createStatement()) {
            s.execute("CREATE TABLE events (id bigint PRIMARY KEY, stamp timestamptz(6) NOT NULL, payload text)");
            s.execute("INSERT INTO events VALUES (1, '2024-05-01 10:00:00.123455+00', 'a'), (2, '2024-05-01 10:00:00.123456+00', 'b')");
            WatermarkTable t = WatermarkTable.of(EVENTS, List.of("id"), new Cursor.Timestamp("stamp")).withSettle(Duration.ZERO);
            Path target = dir.resolve("frac.db");
            try (WatermarkJob job = WatermarkJobs.direct(pg.jdbcUrl(db), pg.user(), pg.password(), target, t)) {
                assertThat(job.run(t, WatermarkPoller.Request.incremental()).rows()).isEqualTo(2);
                assertThat(WatermarkJobs.text(target, "SELECT wm_zoned FROM tidemark_watermarks"))
                        .as("stored in full precision").isEqualTo("2024-05-01T10:00:00.123456Z");
                s.execute("INSERT INTO events VALUES (3, '2024-05-01 10:00:00.123457+00', 'c'), (4, '2024-05-01 10:00:00.123456+00', 'd')");
                RunResult r2 = job.run(t, WatermarkPoller.Request.incremental());
                assertThat(r2.rows()).as("only the row one microsecond above; 4 shares the watermark and is not seen by a plain timestamp cursor").isEqualTo(1);
                assertThat(WatermarkJobs.keys(target, "events", "id")).containsExactly(1L, 2L, 3L);
                assertThat(WatermarkJobs.text(target, "SELECT stamp FROM events WHERE id = 3")).isEqualTo("2024-05-01T10:00:00.123457Z");
                assertThat(WatermarkJobs.text(target, "SELECT __tidemark_position FROM events WHERE id = 3"))
                        .as("read by the second run (run 1; the first is run 0)").isEqualTo("cursor@0000000000000001:2024-05-01T10:00:00.123457000Z");
                assertThat(job.run(t, WatermarkPoller.Request.incremental()).rows()).as("nothing repeated").isZero();
            }
        }
    }

    /** The same on a SQLite source keeping nine fraction digits as text: exact text comparison, exact text watermark. */
    @Test
    void fractionalSecondsAtTheBoundaryAreNeitherDroppedNorRepeatedOnSqliteText() throws Exception {
        Path source = dir.resolve("source.db");
        Path target = dir.resolve("target.db");
        try (Connection src = DriverManager.getConnection("jdbc:sqlite:" + source); Statement s = src.createStatement()) {
            s.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, stamp TIMESTAMP NOT NULL, payload TEXT)");
            s.execute("CREATE INDEX ix_events_stamp ON events (stamp)");
            s.execute("INSERT INTO events VALUES (1, '2024-05-01 10:00:00.123456788', 'a'), (2, '2024-05-01 10:00:00.123456789', 'b')");
            WatermarkTable t = WatermarkTable.of(new TableId("main", "events"), List.of("id"), new Cursor.Timestamp("stamp"))
                    .withSettle(Duration.ZERO);
            try (WatermarkJob job = WatermarkJobs.direct("jdbc:sqlite:" + source, null, null, target, t)) {
                RunResult r1 = job.run(t, WatermarkPoller.Request.incremental());
                assertThat(r1.rows()).isEqualTo(2);
                assertThat(r1.warnings()).as("nanosecond text, microsecond events: the probe says so")
                        .anySatisfy(w -> assertThat(w).contains("[precision]").contains("9 fraction digits"));
                assertThat(r1.warnings()).noneSatisfy(w -> assertThat(w).contains("[index]"));
                assertThat(WatermarkJobs.text(target, "SELECT wm_text FROM tidemark_watermarks")).isEqualTo("2024-05-01 10:00:00.123456789");
                s.execute("INSERT INTO events VALUES (3, '2024-05-01 10:00:00.123456790', 'c')");
                RunResult r2 = job.run(t, WatermarkPoller.Request.incremental());
                assertThat(r2.rows()).isEqualTo(1);
                assertThat(WatermarkJobs.text(target, "SELECT __tidemark_position FROM events WHERE id = 3"))
                        .as("read by the second run (run 1; the first is run 0)").isEqualTo("cursor@0000000000000001:2024-05-01T10:00:00.123456790");
                assertThat(job.run(t, WatermarkPoller.Request.incremental()).rows()).isZero();
                Set<Long> keys = WatermarkJobs.keys(target, "events", "id");
                assertThat(keys.stream().map(String::valueOf).collect(Collectors.joining(","))).isEqualTo("1,2,3");
            }
        }
    }
}
