package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When Debezium fails inside the engine (here: the slot is dropped while {@code tidemark run} streams), its ERROR lines
 * and stack traces used to reach the terminal before Tidemark's one line. The terminal (the launcher's stdout and
 * stderr, as a user sees them) now shows Tidemark's line naming a detail file in the state folder, and no stack trace
 * or exception class name; the file holds Debezium's detail.
 */
class CaptureLibraryDetailIT {
    static final TableId T = new TableId("public", "crates");
    private static final Pattern TRACE = Pattern.compile("^\\tat |^Caused by|[A-Za-z]Exception\\b", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @Test
    void debeziumsDetailGoesToTheFileTheLineNames() throws Exception {
        try (CaptureFixture f = new CaptureFixture("library_detail", dir, List.of(T))) {
            f.sql("CREATE TABLE public.crates (id int PRIMARY KEY, note text)", "INSERT INTO crates SELECT g, 'n' FROM generate_series(1, 20) g");
            Path yaml = f.writeYaml();
            Path log = dir.resolve("terminal.log");
            Process p = f.spawnLauncher(log, "run", "--config", yaml.toString());
            await("tidemark run applied the snapshot").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark run exited early", () -> !p.isAlive())
                    .until(() -> f.targetEqualsSource("id") && Files.exists(f.offsetsFile()));
            await("slot dropped").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> dropSlot(f));

            int code = f.awaitExit(p, log, Duration.ofSeconds(90), () -> "capture kept running without its slot");
            String terminal = Files.readString(log);
            assertThat(code).as("exit code; terminal:%n%s", terminal).isEqualTo(3);
            Path detail = dir.resolve("state").resolve(f.name + ".detail.log");
            assertThat(CaptureFixture.errorLines(log)).as("Tidemark's one line; terminal:%n%s", terminal).singleElement().asString()
                    .contains("replication slot \"" + f.slot() + "\" was dropped while capture ran")
                    .endsWith(" (library detail: " + detail + ")");
            assertThat(TRACE.matcher(terminal).find()).as("no stack trace or exception name on the terminal:%n%s", terminal).isFalse();
            assertThat(Files.readString(detail)).as("Debezium's detail in the file").contains("ERROR io.debezium").containsPattern("\\tat ");
        }
    }

    /** Ends the walsender holding the slot and drops the slot before capture reconnects; false to try again. */
    private static boolean dropSlot(CaptureFixture f) {
        try (PreparedStatement end = f.source.prepareStatement(
                "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = ? AND active_pid IS NOT NULL");
             PreparedStatement drop = f.source.prepareStatement("SELECT pg_drop_replication_slot(?)")) {
            end.setString(1, f.slot());
            end.execute();
            drop.setString(1, f.slot());
            drop.execute();
            return true;
        } catch (SQLException e) {
            return false; // still active (capture reconnected first): try again
        }
    }
}
