package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Someone changes a captured table's REPLICA IDENTITY while {@code tidemark run} streams. Under FULL an update of the
 * key arrives whole; under DEFAULT (likewise USING INDEX or NOTHING) PostgreSQL logs no whole old row, so such an
 * update would lose the unchanged TOASTed value in the target. Capture stops with one line naming the table and the
 * way on; following it word for word (the table's snapshot, taken at the next start, which sets FULL back) makes the
 * target exact. Under NOTHING PostgreSQL itself refuses updates and deletes of the published table, and capture stops
 * the same way.
 */
class ReplicaIdentityChangeIT {
    static final TableId T = new TableId("public", "accounts");

    @TempDir
    Path dir;

    @Test
    void anIdentityOtherThanFullStopsCaptureAndTheLineLeadsBackToAnExactTarget() throws Exception {
        try (CaptureFixture f = new CaptureFixture("replident", dir, List.of(T))) {
            f.sql("CREATE TABLE public.accounts (id int PRIMARY KEY, code text NOT NULL UNIQUE, balance int, doc text)",
                    "ALTER TABLE accounts ALTER COLUMN doc SET STORAGE EXTERNAL", // TOASTed out of line, uncompressed
                    "INSERT INTO accounts SELECT g, 'c' || g, g, repeat(md5(g::text), 400) FROM generate_series(1, 20) g");
            Path yaml = f.writeYaml();
            Path log = dir.resolve("run.log");
            Process run = f.spawn(log, "run", "--config", yaml.toString());
            awaitEqual(f, run, log);

            f.sql("UPDATE accounts SET id = id + 2000 WHERE id = 12", "UPDATE accounts SET balance = 7 WHERE id = 13"); // FULL
            awaitEqual(f, run, log);

            f.sql("ALTER TABLE accounts REPLICA IDENTITY DEFAULT",
                    "UPDATE accounts SET balance = balance + 100 WHERE id <= 5", // doc unchanged: TOASTed, not in the WAL
                    "UPDATE accounts SET id = id + 1000 WHERE id = 6", // a key change: doc would be lost
                    "DELETE FROM accounts WHERE id = 7");
            String line = awaitStopLine(f, run, log);
            assertThat(line).isEqualTo("tidemark: capture stopped: table public.accounts has REPLICA IDENTITY DEFAULT instead of FULL "
                    + "while capture runs, so an update of its primary key can lose unchanged TOASTed values in the target: copy the "
                    + "table again with `tidemark snapshot --config " + yaml + " --table public.accounts` (taken at the next start of "
                    + "capture, which sets REPLICA IDENTITY FULL back; the snapshot rewrites the table's rows and removes the target "
                    + "rows the source no longer holds)");

            String command = line.substring(line.indexOf('`') + 1, line.lastIndexOf('`'));
            Path snapshotLog = dir.resolve("snapshot.log");
            int exit = f.runToEnd(snapshotLog, command.substring("tidemark ".length()).split(" "));
            assertThat(exit).as(CaptureFixture.tail(snapshotLog)).isZero();
            Path again = dir.resolve("run-again.log");
            Process second = f.spawn(again, "run", "--config", yaml.toString());
            await("REPLICA IDENTITY FULL set back").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .failFast("tidemark run exited: " + again, () -> !second.isAlive()).until(() -> "f".equals(identity(f)));
            f.sql("INSERT INTO accounts VALUES (500, 'c500', 5, 'after the restart')");
            await("the table's snapshot and the insert after the restart make the target equal").atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250)).failFast("tidemark run exited: " + again, () -> !second.isAlive())
                    .until(() -> f.targetEqualsSource("id"));

            f.sql("ALTER TABLE accounts REPLICA IDENTITY NOTHING");
            assertThatThrownBy(() -> f.sql("UPDATE accounts SET balance = 0 WHERE id = 11")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("cannot update table \"accounts\" because it does not have a replica identity and publishes updates");
            assertThatThrownBy(() -> f.sql("DELETE FROM accounts WHERE id = 11")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("cannot delete from table \"accounts\" because it does not have a replica identity and publishes deletes");
            assertThat(awaitStopLine(f, second, again))
                    .startsWith("tidemark: capture stopped: table public.accounts has REPLICA IDENTITY NOTHING instead of FULL");
            assertThat(f.targetEqualsSource("id")).as(f.compareSummary("id")).isTrue();
        }
    }

    private static String awaitStopLine(CaptureFixture f, Process run, Path log) throws Exception {
        int exit = f.awaitExit(run, log, Duration.ofSeconds(60), () -> f.compareSummary("id"));
        assertThat(exit).as(CaptureFixture.tail(log)).isEqualTo(3);
        assertThat(CaptureFixture.stackTraceLines(log)).isEmpty();
        List<String> lines = CaptureFixture.errorLines(log);
        assertThat(lines).as(CaptureFixture.tail(log)).hasSize(1);
        return lines.get(0);
    }

    private static void awaitEqual(CaptureFixture f, Process run, Path log) {
        await("target equal to source while tidemark run streams").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .failFast("tidemark run exited: " + log, () -> !run.isAlive())
                .until(() -> f.targetEqualsSource("id"));
    }

    private static String identity(CaptureFixture f) throws SQLException {
        try (Statement s = f.source.createStatement();
             ResultSet rs = s.executeQuery("SELECT relreplident FROM pg_class WHERE relname = 'accounts'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
