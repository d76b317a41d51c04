package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue "schema and topology changes", item 8: {@code tidemark snapshot --config F --table T} snapshots one table into
 * the running pipeline while the other tables stream, and afterwards removes the target rows the snapshot no longer
 * holds; the damaged table ends equal to the source without {@code --resnapshot} or {@code reconcile --repair}.
 */
class TableSnapshotCommandIT {
    static final TableId DAMAGED = new TableId("public", "t8a");
    static final TableId STREAMING = new TableId("public", "t8b");

    @TempDir
    Path dir;

    @Test
    void oneTableIsSnapshottedIntoTheRunningPipelineAndItsStaleTargetRowsRemoved() throws Exception {
        try (CaptureFixture f = new CaptureFixture("snap1", dir, List.of(DAMAGED, STREAMING))) {
            f.sql("CREATE TABLE public.t8a (id int PRIMARY KEY, note text)", "CREATE TABLE public.t8b (id int PRIMARY KEY, note text)",
                    "INSERT INTO public.t8a SELECT g, 'a' || g FROM generate_series(1, 3000) g",
                    "INSERT INTO public.t8b SELECT g, 'b' || g FROM generate_series(1, 100) g");
            Path yaml = f.writeYaml();
            Sidecar s = f.start(f.config());
            f.awaitTargetEqual(s, "id");
            try (Connection t = DriverManager.getConnection(f.targetUrl()); Statement st = t.createStatement()) {
                st.executeUpdate("UPDATE t8a SET note = 'damaged' WHERE id = 5");
                st.executeUpdate("DELETE FROM t8a WHERE id = 6");
                st.executeUpdate("INSERT INTO t8a (id, note) VALUES (9999, 'surplus')");
            }
            assertThat(f.targetEqualsSource("id")).as("the target was damaged").isFalse();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger streamed = new AtomicInteger();
            Thread workload = new Thread(() -> {
                try (Connection c = f.pg.connect(f.database); Statement st = c.createStatement()) {
                    for (int i = 101; !stop.get(); i++) {
                        st.execute("INSERT INTO public.t8b VALUES (" + i + ", 'streamed')");
                        st.execute("UPDATE public.t8a SET note = 'updated " + i + "' WHERE id = " + (i % 3000 + 1));
                        streamed.incrementAndGet(); // unpaced: it runs only until the test has seen it stream during the snapshot
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "workload");
            workload.start();
            Path log = dir.resolve("snapshot.log");
            int exit = f.runToEnd(log, "snapshot", "--config", yaml.toString(), "--table", "public.t8a");
            assertThat(exit).as(Files.readString(log)).isZero();
            assertThat(Files.readString(log)).contains("snapshot").contains("[public.t8a] requested")
                    .contains("running capture takes it while the other tables stream");
            int before = streamed.get();
            org.awaitility.Awaitility.await("the workload streams during the snapshot").atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> streamed.get() > before + 20);
            stop.set(true);
            workload.join();
            f.awaitTargetEqual(s, "id");
            assertThat(f.compareSummary("id")).doesNotContain("9999");
            assertThat(s.failure()).isEmpty();
        }
    }

    @Test
    void aStoppedPipelineTakesTheRequestedSnapshotAtItsNextStart() throws Exception {
        try (CaptureFixture f = new CaptureFixture("snap2", dir, List.of(DAMAGED, STREAMING))) {
            f.sql("CREATE TABLE public.t8a (id int PRIMARY KEY, note text)", "CREATE TABLE public.t8b (id int PRIMARY KEY, note text)",
                    "INSERT INTO public.t8a SELECT g, 'a' || g FROM generate_series(1, 200) g",
                    "INSERT INTO public.t8b SELECT g, 'b' || g FROM generate_series(1, 20) g");
            Path yaml = f.writeYaml();
            Path log = dir.resolve("snapshot.log");
            assertThat(f.runToEnd(log, "snapshot", "--config", yaml.toString(), "--table", "public.t8a")).as(Files.readString(log)).isEqualTo(3);
            assertThat(CaptureFixture.errorLines(log)).singleElement().asString().contains("has no signal table")
                    .contains("tidemark run --config " + yaml);
            assertThat(f.runToEnd(log, "snapshot", "--config", yaml.toString(), "--table", "public.other")).as(Files.readString(log)).isEqualTo(2);
            assertThat(CaptureFixture.errorLines(log)).singleElement().asString().contains("table public.other is not captured");
            try (Sidecar s = f.start(f.config())) {
                f.awaitTargetEqual(s, "id");
            }
            try (Connection t = DriverManager.getConnection(f.targetUrl()); Statement st = t.createStatement()) {
                st.executeUpdate("DELETE FROM t8a WHERE id <= 10");
                st.executeUpdate("INSERT INTO t8a (id, note) VALUES (7777, 'surplus')");
            }
            assertThat(f.runToEnd(log, "snapshot", "--config", yaml.toString(), "--table", "public.t8a")).as(Files.readString(log)).isZero();
            assertThat(Files.readString(log)).contains("pipeline " + f.name + " is not running").contains("[public.t8a] requested")
                    .contains("taken at the next start");
            f.sql("INSERT INTO public.t8b VALUES (21, 'while stopped')");
            try (Sidecar s = f.start(f.config())) {
                f.awaitTargetEqual(s, "id");
                assertThat(s.failure()).isEmpty();
            }
        }
    }
}
