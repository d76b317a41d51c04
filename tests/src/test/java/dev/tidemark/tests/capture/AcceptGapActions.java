package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.debezium.Lsn;
import dev.tidemark.connector.debezium.OffsetsFile;
import dev.tidemark.connector.debezium.StoredOffsets;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The scenarios of issue 21 item 4 in {@link OperatorActionsCorpusIT#eachStopIsRecoveredByTheCommandItsLineNames}:
 * the slot's restart position has passed the stored offsets (the slot advanced while stopped, an older offsets file
 * put back, an offsets file from before a re-snapshot put back). Capture is refused on one line naming
 * {@code --accept-gap}; the same command restarted with it starts from the slot's position, records the gap (a WARN
 * line naming both positions and the repair, a record in the state folder that {@code tidemark status} shows) and
 * streams changes made after the restart; the next plain {@code run} resumes, and the repair the WARN line names,
 * followed word for word, ends with a target equal to the source that {@code tidemark reconcile} confirms. An older
 * offsets file put back alone (its {@code .delivered} still covering the slot) resumes with a plain {@code run} and
 * records no gap.
 */
final class AcceptGapActions {
    static final TableId LEDGER = new TableId("public", "ledger");

    private AcceptGapActions() {
    }

    /** {@code pg_replication_slot_advance} while capture was stopped, past 200 inserts and 50 updates. */
    static void slotAdvancedWhileStopped(OperatorActions s) throws Exception {
        CaptureFixture f = s.f;
        seedAndApply(f);
        Lsn stored = storedPosition(f);
        f.sql("INSERT INTO ledger SELECT g, g FROM generate_series(101, 300) g", "CHECKPOINT",
                "UPDATE ledger SET amount = -amount WHERE id <= 50", "CHECKPOINT");
        try (PreparedStatement ps = f.source.prepareStatement("SELECT pg_replication_slot_advance(?, pg_current_wal_lsn())")) {
            ps.setString(1, f.slot());
            ps.execute();
        }
        assertRestartPassed(f, stored);
        refuseThenAcceptGap(s, "ahead");
    }

    /** An older copy of the offsets file and its {@code .delivered} companion put back while stopped. */
    static void olderOffsetsFilePutBack(OperatorActions s) throws Exception {
        CaptureFixture f = s.f;
        Path dir = s.dir;
        Path backup = dir.resolve("backup");
        Files.createDirectories(backup);
        Lsn old = backedUpThenMovedOn(f, () -> copyState(f, f.offsetsFile().getParent(), backup)); // a backup of the state folder
        copyState(f, backup, f.offsetsFile().getParent()); // ... put back
        passedThenAcceptGap(s, old);
    }

    /** An older offsets file put back alone: a plain {@code run} resumes from the slot and records no gap. */
    static void olderOffsetsFileAlonePutBack(OperatorActions s) throws Exception {
        CaptureFixture f = s.f;
        Path dir = s.dir;
        Path backup = dir.resolve("old.offsets");
        Lsn old = backedUpThenMovedOn(f, () -> Files.copy(f.offsetsFile(), backup));
        // only the offsets file is put back: its .delivered companion still says every change up to the slot is in Kafka
        Files.copy(backup, f.offsetsFile(), StandardCopyOption.REPLACE_EXISTING);
        f.sql("CHECKPOINT");
        assertRestartPassed(f, old);
        Path yaml = f.writeYaml();
        Path log = dir.resolve("resume.log");
        Process p = f.spawn(log, "run", "--config", yaml.toString());
        f.sql("INSERT INTO ledger VALUES (1000, 1000)");
        awaitRow(f, p, log, "id = 1000", "a plain run resumes (nothing was lost: Kafka has every change up to the slot)");
        stop(p, log);
        assertThat(f.targetEqualsSource("id")).as(f.compareSummary("id")).isTrue();
        assertThat(f.offsetsFile().resolveSibling(f.name + ".gaps")).as("no gap: nothing was skipped").doesNotExist();
        s.reconcileFindsNoDifference(yaml);
    }

    /** The offsets file (and {@code .delivered}) from before a {@code run --resnapshot} put back. */
    static void offsetsFileFromBeforeAResnapshotPutBack(OperatorActions s) throws Exception {
        CaptureFixture f = s.f;
        Path dir = s.dir;
        Path backup = dir.resolve("backup");
        Files.createDirectories(backup);
        seedAndApply(f);
        Lsn old = storedPosition(f);
        copyState(f, f.offsetsFile().getParent(), backup);
        Path yaml = f.writeYaml();
        Path resnapshot = dir.resolve("resnapshot.log");
        Process p = f.spawn(resnapshot, "run", "--config", yaml.toString(), "--resnapshot");
        f.sql("INSERT INTO ledger SELECT g, g FROM generate_series(101, 150) g");
        await("--resnapshot applied the new rows").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .failFast("tidemark run --resnapshot exited", () -> !p.isAlive())
                .until(() -> f.targetEqualsSource("id"));
        stop(p, resnapshot);
        copyState(f, backup, f.offsetsFile().getParent()); // the file from before the re-snapshot
        passedThenAcceptGap(s, old);
    }

    /** After a checkpoint the slot's restart position is past {@code stored}; then {@link #refuseThenAcceptGap}. */
    private static void passedThenAcceptGap(OperatorActions s, Lsn stored) throws Exception {
        s.f.sql("CHECKPOINT");
        assertRestartPassed(s.f, stored);
        refuseThenAcceptGap(s, "ahead");
    }

    /** A backup step of the state folder. */
    @FunctionalInterface
    private interface Backup {
        void take() throws Exception;
    }

    /**
     * 100 rows captured and applied in this JVM, {@code backup} taken at the stored position (returned), then 200
     * inserts and 50 updates captured and applied past it, then stopped.
     */
    private static Lsn backedUpThenMovedOn(CaptureFixture f, Backup backup) throws Exception {
        f.sql("CREATE TABLE public.ledger (id int PRIMARY KEY, amount int)",
                "INSERT INTO ledger SELECT g, g FROM generate_series(1, 100) g");
        Sidecar first = f.start(true, true);
        f.awaitTargetEqual(first, "id");
        Lsn old = awaitStoredPosition(f, null);
        backup.take();
        f.sql("INSERT INTO ledger SELECT g, g FROM generate_series(101, 300) g", "CHECKPOINT",
                "UPDATE ledger SET amount = -amount WHERE id <= 50", "CHECKPOINT");
        f.awaitTargetEqual(first, "id");
        awaitStoredPosition(f, old);
        // the slot's restart position moves only while capture confirms positions past a logged snapshot of running
        // transactions (each CHECKPOINT writes one): wait for it here, where the scenario needs it past the backup
        await("the slot's restart_lsn past the backed-up position " + old).atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500)).until(() -> {
                    f.sql("CHECKPOINT");
                    return restartPassed(f, old);
                });
        first.close();
        return old;
    }

    /** 100 rows captured and applied in this JVM, then stopped. */
    private static void seedAndApply(CaptureFixture f) throws Exception {
        f.sql("CREATE TABLE public.ledger (id int PRIMARY KEY, amount int)",
                "INSERT INTO ledger SELECT g, g FROM generate_series(1, 100) g");
        Sidecar first = f.start(true, true);
        f.awaitTargetEqual(first, "id");
        first.close();
    }

    /**
     * The refused start, the advised restart with {@code --accept-gap} (changes after it arrive; WARN line and gap
     * record name both positions; status shows the gap), then a plain restart that resumes and streams on.
     */
    private static void refuseThenAcceptGap(OperatorActions s, String mention) throws Exception {
        CaptureFixture f = s.f;
        Path yaml = f.writeYaml();
        Lsn stored = storedPosition(f);
        Path refused = f.dir.resolve("refused.log");
        int code = f.awaitExit(f.spawn(refused, "run", "--config", yaml.toString()), refused, Duration.ofSeconds(45),
                () -> "it started; target vs source: " + f.compareSummary("id"));
        CaptureOffsetsFileDamagedIT.assertRefused(f, refused, code, mention);
        String advice = CaptureFixture.errorLines(refused).get(0);
        List<String> commands = OperatorActionsCorpusIT.commands(advice);
        assertThat(commands).as("the two whole commands the refusal names: " + advice)
                .containsExactly("run --config " + yaml + " --resnapshot", "run --config " + yaml + " --accept-gap");
        String slotAt = f.slotConfirmedLsn();

        Path gap = f.dir.resolve("accept-gap.log");
        Process p = f.spawn(gap, commands.get(1).split(" "));
        f.sql("INSERT INTO ledger VALUES (1000, 1000)", "UPDATE ledger SET amount = 7 WHERE id = 1");
        awaitRow(f, p, gap, "id = 1000", "--accept-gap streams the insert made after the restart");
        awaitRow(f, p, gap, "id = 1 AND amount = 7", "--accept-gap streams the update made after the restart");
        String log = Files.readString(gap);
        List<String> warned = log.lines().filter(l -> l.contains("WARN") && l.contains("accepted gap")).toList();
        assertThat(warned).as("one WARN line naming the gap's two positions; log:\n" + CaptureFixture.tail(gap))
                .anySatisfy(l -> assertThat(l).contains(stored.toString()).contains(slotAt));
        String warning = warned.stream().filter(l -> l.contains(slotAt)).findFirst().orElseThrow();
        String repair = warning.substring(warning.indexOf("`tidemark ") + "`tidemark ".length(), warning.lastIndexOf('`'));
        assertThat(repair).as("the repair the WARN line names").isEqualTo("reconcile --config " + yaml + " --repair --apply");
        assertThat(CaptureFixture.stackTraceLines(gap)).as("no stack trace").isEmpty();
        stop(p, gap);

        Path gaps = f.offsetsFile().resolveSibling(f.name + ".gaps");
        assertThat(gaps).as("the gap is recorded in the state folder").exists();
        assertThat(Files.readString(gaps)).contains(stored.toString()).contains(slotAt);
        Path status = f.dir.resolve("status.log");
        f.runToEnd(status, "status", "--config", yaml.toString());
        assertThat(Files.readString(status)).as("status shows the accepted gap").contains("accepted gap").contains(stored.toString())
                .contains(slotAt);

        Path again = f.dir.resolve("again.log");
        Process q = f.spawn(again, "run", "--config", yaml.toString());
        f.sql("INSERT INTO ledger VALUES (1001, 1001)");
        awaitRow(f, q, again, "id = 1001", "the next plain run resumes and streams on");
        stop(q, again);

        Path repaired = f.dir.resolve("repair.log");
        assertThat(f.runToEnd(repaired, repair.split(" "))).as("the repair the WARN line names; log:\n" + CaptureFixture.tail(repaired)).isZero();
        assertThat(f.targetEqualsSource("id")).as("after the repair the WARN line names: " + f.compareSummary("id")).isTrue();
        s.reconcileFindsNoDifference(yaml);
    }

    private static void awaitRow(CaptureFixture f, Process p, Path log, String where, String what) {
        try {
            await(what).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark exited", () -> !p.isAlive())
                    .until(() -> count(f, where) == 1);
        } catch (org.awaitility.core.TerminalFailureException | org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "\n--- last lines of " + log + " ---\n" + CaptureFixture.tail(log), e);
        }
    }

    private static void stop(Process p, Path log) throws InterruptedException {
        p.destroy();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("exit code after SIGTERM; log:\n" + CaptureFixture.tail(log)).isZero();
    }

    /** The slot's restart position as text, and whether it is past {@code stored}; empty while the slot is missing. */
    private static java.util.Optional<java.util.Map.Entry<String, Boolean>> restart(CaptureFixture f, Lsn stored) throws Exception {
        try (PreparedStatement ps = f.source.prepareStatement(
                "SELECT restart_lsn::text, restart_lsn > ?::pg_lsn FROM pg_replication_slots WHERE slot_name = ?")) {
            ps.setString(1, stored.toString());
            ps.setString(2, f.slot());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? java.util.Optional.of(java.util.Map.entry(rs.getString(1), rs.getBoolean(2))) : java.util.Optional.empty();
            }
        }
    }

    private static boolean restartPassed(CaptureFixture f, Lsn stored) throws Exception {
        return restart(f, stored).map(java.util.Map.Entry::getValue).orElse(false);
    }

    /** The test's own precondition: the slot's restart position is past the stored one, as in the report. */
    private static void assertRestartPassed(CaptureFixture f, Lsn stored) throws Exception {
        java.util.Map.Entry<String, Boolean> r = restart(f, stored).orElseThrow(() -> new AssertionError("slot " + f.slot() + " missing"));
        assertThat(r.getValue()).as("restart_lsn " + r.getKey() + " past the stored " + stored).isTrue();
    }

    private static Lsn storedPosition(CaptureFixture f) {
        StoredOffsets s = OffsetsFile.read(f.offsetsFile());
        assertThat(s).isInstanceOf(StoredOffsets.Present.class);
        return ((StoredOffsets.Present) s).position().orElseThrow();
    }

    private static Lsn awaitStoredPosition(CaptureFixture f, Lsn after) {
        await("capture stored a position" + (after == null ? "" : " after " + after)).atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> OffsetsFile.read(f.offsetsFile()) instanceof StoredOffsets.Present p && p.position().isPresent()
                        && (after == null || p.position().get().isAfter(after)));
        return storedPosition(f);
    }

    /** Copies the offsets file and its delivered-position companion from one folder to another. */
    private static void copyState(CaptureFixture f, Path from, Path to) throws Exception {
        for (String file : List.of(f.offsetsFile().getFileName().toString(),
                f.offsetsFile().getFileName() + ".delivered")) {
            if (Files.exists(from.resolve(file))) {
                Files.copy(from.resolve(file), to.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static int count(CaptureFixture f, String where) {
        try (var c = java.sql.DriverManager.getConnection(f.targetUrl()); var s = c.createStatement();
             var rs = s.executeQuery("SELECT count(*) FROM ledger WHERE " + where)) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (java.sql.SQLException e) {
            return -1;
        }
    }
}
