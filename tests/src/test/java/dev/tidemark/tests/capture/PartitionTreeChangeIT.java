package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A captured partitioned table's tree changing while {@code tidemark run} streams. A partition created is followed:
 * it gets {@code REPLICA IDENTITY FULL} like the others and its rows arrive. Detaching a partition and attaching a
 * table that holds rows write no row events (the rows leave or join the root unseen), so capture stops with one line
 * naming the partition and the snapshot of the root that makes the target exact; started again without following
 * it, capture stops again; following that line word for word, the target equals the source and capture streams on.
 */
class PartitionTreeChangeIT {
    static final TableId M = new TableId("public", "m");

    @TempDir
    Path dir;

    @Test
    void aCreatedPartitionIsFollowedAndADetachedOneStopsCaptureUntilTheSnapshotItNamesIsRequested() throws Exception {
        try (CaptureFixture f = new CaptureFixture("tree_detach", dir, List.of(M))) {
            createRoot(f);
            Path yaml = f.writeYaml();
            Path log = dir.resolve("run.log");
            Process run = f.spawn(log, "run", "--config", yaml.toString());
            awaitEqual(f, run, log);

            f.sql("CREATE TABLE public.m_3 PARTITION OF public.m FOR VALUES FROM (200) TO (300)");
            await("REPLICA IDENTITY FULL on the new partition public.m_3").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200)).until(() -> "f".equals(identity(f, "m_3")));
            f.sql("INSERT INTO m SELECT g, 'c' || g FROM generate_series(200, 209) g", "UPDATE m SET v = 'u' WHERE id = 201",
                    "DELETE FROM m WHERE id = 202");
            awaitEqual(f, run, log);

            f.sql("ALTER TABLE m DETACH PARTITION m_1", "INSERT INTO m VALUES (190, 'after the detach')");
            String expected = "tidemark: capture stopped: partition public.m_1 left "
                    + "captured table public.m while capture ran (detached or dropped), and the target still holds the rows it took "
                    + "along: run `tidemark snapshot --config " + yaml + " --table public.m` (it reads public.m again and removes the "
                    + "rows the source no longer holds)";
            awaitStop(f, run, log, expected);
            // started again without following the line, it stops again: the rows the partition took along are still there
            Path unfollowed = dir.resolve("run-unfollowed.log");
            String line = awaitStop(f, f.spawn(unfollowed, "run", "--config", yaml.toString()), unfollowed, expected);

            followAndRestart(f, yaml, line);
        }
    }

    @Test
    void aTableWithRowsAttachedAsAPartitionStopsCaptureNamingTheSnapshotOfTheRoot() throws Exception {
        try (CaptureFixture f = new CaptureFixture("tree_attach", dir, List.of(M))) {
            createRoot(f);
            f.sql("CREATE TABLE public.m_old (id int NOT NULL, v text)", "INSERT INTO m_old SELECT g, 'old' || g FROM generate_series(300, 319) g");
            Path yaml = f.writeYaml();
            Path log = dir.resolve("run.log");
            Process run = f.spawn(log, "run", "--config", yaml.toString());
            awaitEqual(f, run, log);

            f.sql("ALTER TABLE m ATTACH PARTITION m_old FOR VALUES FROM (300) TO (400)");
            String line = awaitStop(f, run, log, "tidemark: capture stopped: table public.m_old was "
                    + "attached to captured table public.m while capture ran, with rows capture never saw: run `tidemark snapshot "
                    + "--config " + yaml + " --table public.m` (it reads public.m again, the attached rows with it)");

            followAndRestart(f, yaml, line);
        }
    }

    /**
     * A TRUNCATE of one partition: the partitions the start found and one created while streaming carry Tidemark's
     * truncate trigger; truncating them stops capture naming the snapshot of the root, and following it the target
     * equals the source. A TRUNCATE of the root (published as such) does not stop capture. {@code tidemark drop}
     * removes the triggers and their function.
     */
    @Test
    void aTruncatedPartitionStopsCaptureAndTheSnapshotItsLineNamesRemovesItsRows() throws Exception {
        try (CaptureFixture f = new CaptureFixture("tree_truncate", dir, List.of(M))) {
            createRoot(f);
            Path yaml = f.writeYaml();
            Files.writeString(yaml, Files.readString(yaml).replace("  batchSize: 500\n", "  batchSize: 500\n  applyTruncate: true\n"));
            Path log = dir.resolve("run.log");
            Process run = f.spawn(log, "run", "--config", yaml.toString());
            awaitEqual(f, run, log);
            f.sql("CREATE TABLE public.m_3 PARTITION OF public.m FOR VALUES FROM (200) TO (300)");
            await("the truncate trigger on the new partition public.m_3").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200)).until(() -> truncateTriggers(f).contains("m_3"));
            assertThat(truncateTriggers(f)).containsExactly("m_1", "m_2", "m_3");
            f.sql("INSERT INTO m SELECT g, 'c' || g FROM generate_series(200, 209) g");
            awaitEqual(f, run, log);

            f.sql("TRUNCATE m_1, m_3", "INSERT INTO m VALUES (5, 'after the truncate')", "UPDATE m SET v = 'u' WHERE id = 120");
            String line = awaitStop(f, run, log, "tidemark: capture stopped: partition public.m_1 of "
                    + "captured table public.m was truncated at the source, and PostgreSQL publishes no TRUNCATE of one partition, "
                    + "so the target still holds its rows: run `tidemark snapshot --config " + yaml + " --table public.m` (it "
                    + "reads public.m again and removes the rows the source no longer holds)");

            String[] restart = SchemaChangeStopRecoveryIT.snapshotAsTheLineSays(f, line, yaml);
            Path again = dir.resolve("run-again.log");
            Process second = f.spawn(again, restart);
            awaitEqual(f, second, again);
            assertThat(Files.readString(again)).contains("a snapshot of public.m was requested after partition public.m_3 was truncated");
            f.sql("INSERT INTO m VALUES (6, 'after the restart')", "UPDATE m SET v = 'again' WHERE id = 130");
            awaitEqual(f, second, again);

            f.sql("TRUNCATE m", "INSERT INTO m VALUES (7, 'after the root truncate'), (150, 'b')");
            awaitEqual(f, second, again);
            assertThat(second.isAlive()).as(CaptureFixture.tail(again)).isTrue();
            second.destroy();
            second.waitFor();

            Path dropLog = dir.resolve("drop.log");
            assertThat(f.runToEnd(dropLog, "drop", "--config", yaml.toString(), "--yes")).as(Files.readString(dropLog)).isZero();
            assertThat(Files.readString(dropLog)).contains("trigger \"tidemark_trunc_" + f.name + "\" on \"public\".\"m_1\"");
            assertThat(truncateTriggers(f)).as("truncate triggers left after tidemark drop").isEmpty();
            try (Statement s = f.source.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_proc WHERE proname LIKE 'tidemark%'")) {
                rs.next();
                assertThat(rs.getInt(1)).as("Tidemark functions left after tidemark drop").isZero();
            }
            try (Statement s = f.source.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_event_trigger WHERE evtname LIKE 'tidemark%'")) {
                rs.next();
                assertThat(rs.getInt(1)).as("Tidemark event triggers left after tidemark drop").isZero();
            }
        }
    }

    /**
     * In event-trigger mode a partition gets its truncate trigger in the very transaction that creates it, so a TRUNCATE
     * of it at once after the commit, or in that same transaction, stops capture with the partition-truncate line; the
     * snapshot it names, followed word for word, makes the target equal (the truncated rows removed).
     */
    @Test
    void aPartitionTruncatedAtOnceAfterItsCreationOrInItsOwnTransactionStopsCapture() throws Exception {
        try (CaptureFixture f = new CaptureFixture("tree_trunc_at_once", dir, List.of(M))) {
            createRoot(f);
            Path yaml = f.writeYaml();
            Path log = dir.resolve("run.log");
            Process run = f.spawn(log, "run", "--config", yaml.toString());
            awaitEqual(f, run, log);

            f.sql("BEGIN; CREATE TABLE public.m_3 PARTITION OF public.m FOR VALUES FROM (200) TO (300); "
                    + "INSERT INTO m SELECT g, 'c' || g FROM generate_series(200, 209) g; COMMIT", "TRUNCATE m_3");
            Process second = stopAndFollow(f, yaml, run, log, "public.m_3", "again-1.log");
            assertThat(f.targetEqualsSource("id")).as(f.compareSummary("id")).isTrue();

            f.sql("BEGIN; CREATE TABLE public.m_4 PARTITION OF public.m FOR VALUES FROM (300) TO (400); "
                    + "INSERT INTO m SELECT g, 'd' || g FROM generate_series(300, 309) g; TRUNCATE m_4; COMMIT");
            Process third = stopAndFollow(f, yaml, second, dir.resolve("again-1.log"), "public.m_4", "again-2.log");
            f.sql("INSERT INTO m VALUES (310, 'after the restart')");
            awaitEqual(f, third, dir.resolve("again-2.log"));
            third.destroy();
            third.waitFor();
        }
    }

    /** The same for an empty table attached, filled and truncated in one transaction: the attach gives it the trigger. */
    @Test
    void aTableAttachedFilledAndTruncatedInOneTransactionStopsCapture() throws Exception {
        try (CaptureFixture f = new CaptureFixture("tree_attach_trunc", dir, List.of(M))) {
            createRoot(f);
            f.sql("CREATE TABLE public.m_5 (id int NOT NULL, v text)");
            Path yaml = f.writeYaml();
            Path log = dir.resolve("run.log");
            Process run = f.spawn(log, "run", "--config", yaml.toString());
            awaitEqual(f, run, log);

            f.sql("BEGIN; ALTER TABLE public.m ATTACH PARTITION public.m_5 FOR VALUES FROM (500) TO (600); "
                    + "INSERT INTO m SELECT g, 'e' || g FROM generate_series(500, 509) g; TRUNCATE m_5; COMMIT");
            Process next = stopAndFollow(f, yaml, run, log, "public.m_5", "again.log");
            assertThat(identity(f, "m_5")).isEqualTo("f");
            next.destroy();
            next.waitFor();
        }
    }

    /** Awaits the partition-truncate stop naming {@code partition}, follows its line word for word and starts again. */
    private Process stopAndFollow(CaptureFixture f, Path yaml, Process run, Path log, String partition, String againLog) throws Exception {
        String line = awaitStop(f, run, log, "tidemark: capture stopped: partition " + partition + " of "
                + "captured table public.m was truncated at the source, and PostgreSQL publishes no TRUNCATE of one partition, "
                + "so the target still holds its rows: run `tidemark snapshot --config " + yaml + " --table public.m` (it "
                + "reads public.m again and removes the rows the source no longer holds)");
        String[] restart = SchemaChangeStopRecoveryIT.snapshotAsTheLineSays(f, line, yaml);
        Path again = dir.resolve(againLog);
        Process next = f.spawn(again, restart);
        awaitEqual(f, next, again);
        assertThat(Files.readString(again)).contains("a snapshot of public.m was requested after partition " + partition + " was truncated");
        return next;
    }

    /**
     * Catalog-comparison mode (a source user that is no superuser) puts no trigger on the partitions, so a TRUNCATE of
     * one is not seen: the start says so in one WARN line naming the snapshot, and running that command word for word
     * while capture streams makes the target equal to the source.
     */
    @Test
    void inCatalogComparisonModeTheStartSaysATruncatedPartitionIsNotSeenAndTheSnapshotItNamesRecovers() throws Exception {
        try (CaptureFixture f = new CaptureFixture("tree_truncate_cc", dir, List.of(M))) {
            createRoot(f);
            String role = "tm_" + f.database;
            f.sql("CREATE ROLE \"" + role + "\" LOGIN REPLICATION", "GRANT CREATE ON DATABASE \"" + f.database + "\" TO \"" + role + "\"",
                    "GRANT CREATE ON SCHEMA public TO \"" + role + "\"");
            for (String t : List.of("m", "m_1", "m_2")) {
                f.sql("ALTER TABLE public." + t + " OWNER TO \"" + role + "\"");
            }
            Path yaml = f.writeYaml();
            Files.writeString(yaml, Files.readString(yaml).replace("  user: " + f.pg.user() + "\n", "  user: " + role + "\n"));
            Path log = dir.resolve("run.log");
            Process run = f.spawn(log, "run", "--config", yaml.toString());
            awaitEqual(f, run, log);
            String line = "capture " + f.name + ": a TRUNCATE of one partition of public.m is not seen in catalog-comparison mode "
                    + "(PostgreSQL publishes none, and the trigger that reports one needs the event-trigger mode's superuser): the "
                    + "target keeps its rows until you run `tidemark snapshot --config " + yaml + " --table public.m`";
            assertThat(Files.readAllLines(log)).as(CaptureFixture.tail(log)).anyMatch(l -> l.contains(" WARN ") && l.endsWith(line));
            assertThat(truncateTriggers(f)).isEmpty();

            f.sql("TRUNCATE m_2", "INSERT INTO m VALUES (160, 'after the truncate')");
            await("the insert after the truncate arrives").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark run exited: " + log, () -> !run.isAlive())
                    .until(() -> f.compareSummary("id").contains("missing=[]"));
            assertThat(f.compareSummary("id")).as("the target keeps the truncated partition's rows").contains("targetRows=151");

            Path snapLog = dir.resolve("snapshot.log");
            assertThat(f.runToEnd(snapLog, SchemaChangeStopRecoveryIT.command(line))).as(Files.readString(snapLog)).isZero();
            awaitEqual(f, run, log);
            f.sql("INSERT INTO m VALUES (161, 'after the snapshot')");
            awaitEqual(f, run, log);
        }
    }

    /** The tables carrying a trigger whose name starts with {@code tidemark_trunc_}, by name. */
    private static List<String> truncateTriggers(CaptureFixture f) throws SQLException {
        try (Statement s = f.source.createStatement();
             ResultSet rs = s.executeQuery("SELECT c.relname FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid "
                     + "WHERE g.tgname LIKE 'tidemark\\_trunc\\_%' ORDER BY 1")) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }

    /** Awaits the exit of {@code run} with code 3, no stack trace and {@code expected} as its one error line; returns it. */
    private static String awaitStop(CaptureFixture f, Process run, Path log, String expected) throws Exception {
        int exit = f.awaitExit(run, log, Duration.ofSeconds(60), () -> f.compareSummary("id"));
        assertThat(exit).as(CaptureFixture.tail(log)).isEqualTo(3);
        assertThat(CaptureFixture.stackTraceLines(log)).isEmpty();
        List<String> lines = CaptureFixture.errorLines(log);
        assertThat(lines).as(CaptureFixture.tail(log)).containsExactly(expected);
        return lines.get(0);
    }

    private static void createRoot(CaptureFixture f) throws SQLException {
        f.sql("CREATE TABLE public.m (id int, v text, PRIMARY KEY (id)) PARTITION BY RANGE (id)",
                "CREATE TABLE public.m_1 PARTITION OF public.m FOR VALUES FROM (0) TO (100)",
                "CREATE TABLE public.m_2 PARTITION OF public.m FOR VALUES FROM (100) TO (200)",
                "INSERT INTO m SELECT g, 'v' || g FROM generate_series(1, 150) g");
    }

    /**
     * Runs the snapshot the line names word for word, then the start it names: the snapshot is followed (said in the
     * log), the target equals the source, and one more change streams.
     */
    private static void followAndRestart(CaptureFixture f, Path yaml, String line) throws Exception {
        String[] restart = SchemaChangeStopRecoveryIT.snapshotAsTheLineSays(f, line, yaml);
        Path log = f.dir.resolve("run-again.log");
        Process again = f.spawn(log, restart);
        awaitEqual(f, again, log);
        assertThat(Files.readString(log)).contains("a snapshot of public.m was requested after its partitions changed");
        f.sql("INSERT INTO m VALUES (160, 'after the restart')", "UPDATE m SET v = 'again' WHERE id = 120");
        awaitEqual(f, again, log);
        assertThat(again.isAlive()).as(CaptureFixture.tail(log)).isTrue();
    }

    private static void awaitEqual(CaptureFixture f, Process run, Path log) {
        await("target equal to source while tidemark run streams").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .failFast("tidemark run exited: " + log, () -> !run.isAlive())
                .until(() -> f.targetEqualsSource("id"));
    }

    private static String identity(CaptureFixture f, String table) throws SQLException {
        try (Statement s = f.source.createStatement();
             ResultSet rs = s.executeQuery("SELECT relreplident FROM pg_class WHERE relname = '" + table + "'")) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out.isEmpty() ? null : out.get(0);
        }
    }
}
