package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue "schema and topology changes", item 5: a source table dropped and re-created under the same name while
 * {@code tidemark run} streams fell out of the publication and none of its new rows arrived, silently. Capture now
 * stops with one line naming the table and the command; that command (a restart) snapshots the new table and removes
 * the old table's rows from the target, while the other table keeps its rows.
 */
class TableRecreatedIT {
    static final TableId RECREATED = new TableId("public", "t5r");
    static final TableId OTHER = new TableId("public", "t5s");

    @TempDir
    Path dir;

    @Test
    void aTableRecreatedWhileRunningStopsCaptureAndTheNamedCommandBringsTheNewTable() throws Exception {
        try (CaptureFixture f = new CaptureFixture("recreate", dir, List.of(RECREATED, OTHER))) {
            f.sql("CREATE TABLE public.t5r (id int PRIMARY KEY, note text)", "CREATE TABLE public.t5s (id int PRIMARY KEY, note text)",
                    "INSERT INTO public.t5r SELECT g, 'old ' || g FROM generate_series(1, 5000) g",
                    "INSERT INTO public.t5s SELECT g, 's' || g FROM generate_series(1, 100) g");
            Path yaml = f.writeYaml();
            Path firstLog = dir.resolve("run-1.log");
            Process run = f.spawn(firstLog, "run", "--config", yaml.toString());
            await("the first run copies both tables").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                    .failFast("tidemark run exited: " + firstLog, () -> !run.isAlive())
                    .until(() -> f.targetEqualsSource("id"));
            f.sql("DROP TABLE public.t5r", "CREATE TABLE public.t5r (id int PRIMARY KEY, note text)",
                    "INSERT INTO public.t5r SELECT g, 'new ' || g FROM generate_series(4001, 9000) g",
                    "INSERT INTO public.t5s VALUES (101, 'streamed while t5r was re-created')");
            int exit = f.awaitExit(run, firstLog, Duration.ofSeconds(60), () -> f.compareSummary("id"));
            List<String> lines = CaptureFixture.errorLines(firstLog);
            assertThat(exit).as(CaptureFixture.tail(firstLog)).isEqualTo(3);
            assertThat(lines).as(CaptureFixture.tail(firstLog)).hasSize(1);
            assertThat(lines.get(0)).contains("table public.t5r was dropped and re-created while capture ran");
            assertThat(CaptureFixture.stackTraceLines(firstLog)).isEmpty();
            Matcher m = Pattern.compile("`tidemark (run --config [^`]+)`").matcher(lines.get(0));
            assertThat(m.find()).as(lines.get(0)).isTrue();
            List<String> command = new ArrayList<>(List.of(m.group(1).split(" ")));
            assertThat(command).containsExactly("run", "--config", yaml.toString());
            Path secondLog = dir.resolve("run-2.log");
            Process again = f.spawn(secondLog, command.toArray(String[]::new));
            f.sql("INSERT INTO public.t5r VALUES (9001, 'after the restart')", "UPDATE public.t5r SET note = 'updated' WHERE id = 4001");
            try {
                await("the new t5r arrives and the old one's rows go").atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(500))
                        .failFast("tidemark run exited: " + secondLog, () -> !again.isAlive())
                        .until(() -> f.targetEqualsSource("id"));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError(f.compareSummary("id") + "\n" + CaptureFixture.tail(secondLog), e);
            }
        }
    }
}
