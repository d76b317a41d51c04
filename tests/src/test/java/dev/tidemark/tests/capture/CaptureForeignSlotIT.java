package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipeline B configured with {@code source.slot} set to pipeline A's slot used to be refused with the advice
 * {@code --resnapshot (drops and re-creates the slot)}; following it dropped A's slot (it failed only while A was
 * active). Every slot and publication Tidemark creates now records its owner (pipeline name and the random id in the
 * state folder, on the source as the publication's comment), and B never drops, advances or re-creates A's: B's
 * {@code run}, {@code run --resnapshot}, {@code run --accept-gap} and {@code drop --yes} are refused with one line
 * naming A and advising a step that touches only B's own; A's slot is left as it was. Following the advice word for
 * word (a slot of B's own) works.
 */
class CaptureForeignSlotIT {
    static final TableId T = new TableId("public", "boxes");
    private static final Pattern ADVICE = Pattern.compile("set source\\.slot in (\\S+) to a name no other pipeline uses");

    @TempDir
    Path dir;

    @Test
    void anotherPipelinesSlotIsNeverDroppedAdvancedOrRecreated() throws Exception {
        try (CaptureFixture a = new CaptureFixture("foreign_slot", dir, List.of(T))) {
            a.sql("CREATE TABLE public.boxes (id int PRIMARY KEY, note text)", "INSERT INTO boxes SELECT g, 'n' FROM generate_series(1, 20) g");
            Sidecar running = a.start(true, true);
            a.awaitTargetEqual(running, "id");
            await("A stored offsets").atMost(Duration.ofSeconds(30)).until(() -> Files.exists(a.offsetsFile()));
            Path b = pipelineB(a);

            Path whileRunning = dir.resolve("b-running.log");
            int code = a.runToEnd(whileRunning, "run", "--config", b.toString());
            assertRefusedNamingA(a, whileRunning, code, b);
            assertThat(Files.readString(whileRunning)).contains("in use: held by PID");

            running.close();
            String confirmed = a.slotConfirmedLsn();
            String comment = publicationComment(a, "pub_" + a.name);
            assertThat(comment).as("A's owner record on its publication").startsWith("tidemark-owner v1 ").contains(a.name, a.slot());
            for (String[] args : List.of(new String[] {"run"}, new String[] {"run", "--resnapshot"}, new String[] {"run", "--accept-gap"},
                    new String[] {"drop", "--yes"})) {
                Path log = dir.resolve("b-" + String.join("", args).replace("-", "") + ".log");
                String[] argv = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.stream.Stream.of("--config", b.toString()))
                        .toArray(String[]::new);
                int c = a.runToEnd(log, argv);
                assertRefusedNamingA(a, log, c, b);
                assertThat(Files.readString(log)).as("%s never drops A's slot", String.join(" ", args)).doesNotContain("dropping slot");
                assertThat(a.slotExists()).as("A's slot after B's %s", String.join(" ", args)).isTrue();
                assertThat(a.slotConfirmedLsn()).as("A's slot not advanced by B's %s", String.join(" ", args)).isEqualTo(confirmed);
            }
            assertThat(dir.resolve("state-b")).as("nothing created for B").doesNotExist();

            // the advice, word for word: a slot of B's own
            Matcher m = ADVICE.matcher(CaptureFixture.errorLines(dir.resolve("b-run.log")).get(0));
            assertThat(m.find()).isTrue();
            Path file = Path.of(m.group(1));
            Files.writeString(file, Files.readString(file).replace("  slot: " + a.slot(), "  slot: " + a.slot() + "_b"));
            Path ok = dir.resolve("b-own-slot.log");
            Process own = a.spawn(ok, "run", "--config", file.toString());
            try {
                await("B runs on a slot of its own").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                        .failFast("B exited", () -> !own.isAlive())
                        .until(() -> slotConfirmed(a, a.slot() + "_b") && Files.exists(dir.resolve("state-b").resolve(a.name + "_b.offsets")));
            } finally {
                own.destroy();
                own.waitFor(60, TimeUnit.SECONDS);
                a.sql("SELECT pg_drop_replication_slot('" + a.slot() + "_b')");
            }
            assertThat(a.slotConfirmedLsn()).as("A's slot untouched").isEqualTo(confirmed);
        }
    }

    private static void assertRefusedNamingA(CaptureFixture a, Path log, int code, Path b) throws Exception {
        String out = Files.readString(log);
        assertThat(code).as("exit code; output:%n%s", out).isEqualTo(3);
        List<String> errors = CaptureFixture.errorLines(log);
        assertThat(errors).as("one line; output:%n%s", out).hasSize(1);
        assertThat(errors.get(0)).contains("replication slot \"" + a.slot() + "\" belongs to pipeline " + a.name + " (owner id ",
                "not to pipeline " + a.name + "_b", "set source.slot in " + b + " to a name no other pipeline uses").doesNotContain("--resnapshot");
        assertThat(CaptureFixture.stackTraceLines(log)).as("no stack trace in:%n%s", out).isEmpty();
    }

    /** Pipeline B: its own name, topics, publication, state folder and target, and A's slot. */
    private Path pipelineB(CaptureFixture a) throws Exception {
        String yaml = Files.readString(a.writeYaml()).lines().map(l -> {
            if (l.startsWith("name: ")) {
                return "name: " + a.name + "_b";
            } else if (l.startsWith("  publication: ") || l.startsWith("  topicPrefix: ") || l.startsWith("    group.instance.id: ")) {
                return l + "_b";
            } else if (l.startsWith("stateDir: ")) {
                return "stateDir: state-b";
            }
            return l.replace("target.db", "target-b.db");
        }).collect(Collectors.joining("\n", "", "\n"));
        return Files.writeString(dir.resolve("b.yaml"), yaml);
    }

    private static String publicationComment(CaptureFixture a, String publication) throws Exception {
        try (Statement s = a.source.createStatement();
             ResultSet rs = s.executeQuery("SELECT obj_description(oid, 'pg_publication') FROM pg_publication WHERE pubname = '" + publication + "'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static boolean slotConfirmed(CaptureFixture a, String slot) throws Exception {
        try (Statement s = a.source.createStatement();
             ResultSet rs = s.executeQuery("SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
            return rs.next() && rs.getString(1) != null;
        }
    }
}
