package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The scenario of issue 21 item 6 in {@link OperatorActionsCorpusIT#eachStopIsRecoveredByTheCommandItsLineNames}:
 * {@code tidemark drop --topics --yes} then {@code tidemark run}. Before, that was a dead end — the target kept its
 * offsets, so the sink stopped ("stored offset … is past the end offset 0") while capture had already created a new
 * slot and started a snapshot, with ~70 lines of {@code InterruptedException} traces — and drop left
 * {@code <name>.last-reconcile.json}, the sink member lock and {@code REPLICA IDENTITY FULL} behind. Checked after
 * drop: no slot, no publication, no topic, no file of the pipeline in stateDir, no row of the pipeline in
 * {@code tidemark_offsets} nor of its tables in {@code tidemark_table_positions}, each captured table's replica
 * identity as it was before the first run (DEFAULT, USING INDEX, and FULL where the user had set it), a table never
 * captured untouched, the target's rows kept; no signal table, DDL event trigger, function or key table of the
 * pipeline, and none of its records left in the history topic {@code <topicPrefix>.__tidemark_history}, while
 * pipeline B (same source database, same topicPrefix) keeps its slot, publication, signal table, DDL trigger and
 * history records; the dry run lists all of them first. B's own drop then removes the history topic (no other
 * pipeline's record left in it). Then {@code run} works end to end: the new snapshot (over the kept rows, some
 * changed meanwhile) and later changes arrive without stack traces, and {@code tidemark reconcile} finds the target
 * equal to the source.
 */
final class DropActions {
    static final TableId A = new TableId("public", "drop_a");
    static final TableId B = new TableId("public", "drop_b");
    static final TableId C = new TableId("public", "drop_c");

    private DropActions() {
    }

    /** {@code drop --topics --yes} leaves nothing Tidemark created, restores what it changed, and {@code run} then works. */
    static void dropTopicsThenRun(OperatorActions s) throws Exception {
        CaptureFixture f = s.f;
        Path dir = s.dir;
        Path yaml = firstRunThenStopped(s);
        String history = f.name + ".__tidemark_history";
        String signal = "tidemark_signal_" + f.slot();
        List<String> ownDdl = ddlObjects(f);
        assertThat(ownDdl).as("capture installed its DDL trigger (superuser source)").hasSize(4);
        assertThat(tableExists(f, signal)).as("capture created its signal table").isTrue();
        String other = f.name + "_b";
        Path yamlB = pipelineBRecordsItsHistory(s, yaml, history);
        List<String> otherDdl = ddlObjects(f).stream().filter(o -> !ownDdl.contains(o)).toList();
        assertThat(otherDdl).as("pipeline B's DDL trigger").hasSize(4);
        assertThat(liveKeys(f, history)).as("A's history records").contains(f.name + ".public.drop_a-0", f.name + ".public.drop_c-1");

        Path dry = dir.resolve("dry.log");
        assertThat(f.runToEnd(dry, "drop", "--config", yaml.toString(), "--topics")).as(Files.readString(dry)).isEqualTo(2);
        String listed = Files.readString(dry);
        assertThat(listed).as("the dry run lists every item it would remove")
                .contains(history, "\"" + signal + "\"").contains(ownDdl);

        Path drop = dir.resolve("drop.log");
        assertThat(f.runToEnd(drop, "drop", "--config", yaml.toString(), "--topics", "--yes")).as(Files.readString(drop)).isZero();
        System.out.println(Files.readString(drop));
        assertThat(tableExists(f, signal)).as("A's signal table").isFalse();
        assertThat(ddlObjects(f)).as("A's DDL trigger objects gone, B's kept").doesNotContainAnyElementsOf(ownDdl)
                .containsAll(otherDdl);
        assertThat(tableExists(f, "tidemark_signal_slot_" + other)).as("B's signal table").isTrue();
        assertThat(count(f.source, "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'slot_" + other + "'")).as("B's slot")
                .isEqualTo(1);
        assertThat(count(f.source, "SELECT count(*) FROM pg_publication WHERE pubname = 'pub_" + other + "'")).as("B's publication")
                .isEqualTo(1);
        assertThat(liveKeys(f, history)).as("history topic " + history + " (shared with B): only B's records left")
                .containsExactly(f.name + ".public.drop_other-0", f.name + ".public.drop_other-1");

        nothingOfThePipelineLeft(f, dir.resolve("state"));
        lastUserDropsTheHistoryTopic(s, yamlB, history);
        runAfterDropWorks(s, yaml);
    }

    /**
     * No slot, publication or topic of the pipeline, no file of it in {@code stateDir}, no stored offset or table
     * position in the target (whose rows are kept), each identity as it was before Tidemark.
     */
    private static void nothingOfThePipelineLeft(CaptureFixture f, Path stateDir) throws Exception {
        assertThat(f.slotExists()).as("slot").isFalse();
        assertThat(count(f.source, "SELECT count(*) FROM pg_publication WHERE pubname = 'pub_" + f.name + "'")).as("publication").isZero();
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", f.bootstrap))) {
            Set<String> names = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            assertThat(f.config().topics()).as("topics").noneMatch(names::contains);
        }
        assertThat(pipelineFiles(f, stateDir)).as("files of the pipeline left in " + stateDir).isEmpty();
        try (Connection t = DriverManager.getConnection(f.targetUrl())) {
            assertThat(count(t, "SELECT count(*) FROM tidemark_offsets WHERE pipeline = '" + f.name + "'")).as("stored offsets").isZero();
            assertThat(count(t, "SELECT count(*) FROM tidemark_table_positions WHERE table_name IN ('drop_a', 'drop_b', 'drop_c')"))
                    .as("table positions").isZero();
            assertThat(count(t, "SELECT count(*) FROM drop_a")).as("the target's rows are kept").isEqualTo(50);
        }
        assertThat(identity(f, A)).as("drop_a's identity restored").isEqualTo("d");
        assertThat(identity(f, B)).as("drop_b was FULL before Tidemark: left FULL").isEqualTo("f");
        assertThat(identity(f, C)).as("drop_c's USING INDEX restored").isEqualTo("i");
        assertThat(count(f.source, "SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                + "WHERE c.relname = 'drop_c_code' AND i.indisreplident")).as("drop_c's identity index").isEqualTo(1);
        assertThat(identity(f, new TableId("public", "drop_never"))).as("a table never captured").isEqualTo("d");
    }

    /** Three tables (identities DEFAULT, FULL, USING INDEX) captured and applied by {@code run}, reconciled, stopped. */
    private static Path firstRunThenStopped(OperatorActions s) throws Exception {
        CaptureFixture f = s.f;
        Path dir = s.dir;
        f.sql("CREATE TABLE public.drop_a (id int PRIMARY KEY, note text)",
                "CREATE TABLE public.drop_b (id int PRIMARY KEY, note text)",
                "CREATE TABLE public.drop_c (id int PRIMARY KEY, code text NOT NULL)",
                "CREATE UNIQUE INDEX drop_c_code ON public.drop_c (code)",
                "ALTER TABLE public.drop_c REPLICA IDENTITY USING INDEX drop_c_code",
                "ALTER TABLE public.drop_b REPLICA IDENTITY FULL",
                "CREATE TABLE public.drop_never (id int PRIMARY KEY)",
                "INSERT INTO drop_a SELECT g, 'a' || g FROM generate_series(1, 50) g",
                "INSERT INTO drop_b SELECT g, 'b' || g FROM generate_series(1, 50) g",
                "INSERT INTO drop_c SELECT g, 'c' || g FROM generate_series(1, 50) g");
        Path yaml = f.writeYaml();
        // without a fixed group.instance.id the sink claims a member slot (a lock file in stateDir)
        Files.writeString(yaml, Files.readString(yaml).replaceAll("(?m)^    group\\.instance\\.id: .*\\n", ""));

        Path first = dir.resolve("first.log");
        Process run = f.spawn(first, "run", "--config", yaml.toString());
        awaitEqual(f, run, first);
        Path reconcile = dir.resolve("reconcile.log");
        assertThat(f.runToEnd(reconcile, "reconcile", "--config", yaml.toString(), "--settle", "1s")).as(Files.readString(reconcile))
                .isZero();
        Path stateDir = dir.resolve("state");
        assertThat(stateDir.resolve(f.name + ".last-reconcile.json")).exists();
        assertThat(pipelineFiles(f, stateDir)).anyMatch(n -> n.contains(".sink-member-"));
        stop(run, first);
        assertThat(identity(f, A)).as("run set FULL on drop_a").isEqualTo("f");
        return yaml;
    }

    /** Pipeline B: same source database, same Kafka and topicPrefix (so the same history topic), its own slot. */
    private static Path pipelineBRecordsItsHistory(OperatorActions s, Path yaml, String history) throws Exception {
        CaptureFixture f = s.f;
        Path dir = s.dir;
        f.sql("CREATE TABLE public.drop_other (id int PRIMARY KEY, note text)",
                "INSERT INTO drop_other SELECT g, 'o' || g FROM generate_series(1, 20) g");
        String other = f.name + "_b";
        Path yamlB = dir.resolve("other.yaml");
        Files.writeString(yamlB, Files.readString(yaml).replace("name: " + f.name + "\n", "name: " + other + "\n")
                .replace("slot: " + f.slot(), "slot: slot_" + other).replace("publication: pub_" + f.name, "publication: pub_" + other)
                .replaceAll("tables: \\[.*]", "tables: [public.drop_other]").replace("target.db", "target_b.db"));
        Path otherLog = dir.resolve("other.log");
        Process capB = f.spawn(otherLog, "capture", "--config", yamlB.toString());
        String otherKey = f.name + ".public.drop_other-0";
        await("pipeline B records its history").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                .failFast("pipeline B's capture exited; log:\n" + CaptureFixture.tail(otherLog), () -> !capB.isAlive())
                .until(() -> liveKeys(f, history).contains(otherKey) && tableExists(f, "tidemark_signal_slot_" + other));
        stop(capB, otherLog);
        return yamlB;
    }

    /** B's own drop deletes the history topic, no other pipeline's record being left in it. */
    private static void lastUserDropsTheHistoryTopic(OperatorActions s, Path yamlB, String history) throws Exception {
        CaptureFixture f = s.f;
        String other = f.name + "_b";
        Path dropB = s.dir.resolve("drop-b.log");
        assertThat(f.runToEnd(dropB, "drop", "--config", yamlB.toString(), "--topics", "--yes")).as(Files.readString(dropB)).isZero();
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", f.bootstrap))) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).as("history topic once B, its last user, dropped")
                    .doesNotContain(history);
        }
        assertThat(ddlObjects(f)).as("no DDL trigger object left").isEmpty();
        assertThat(tableExists(f, "tidemark_signal_slot_" + other)).as("B's signal table").isFalse();

    }

    /**
     * {@code run} after the drop applies the new snapshot over the kept rows (five changed and five deleted at the source
     * meanwhile, and drop_c emptied there: the snapshot's end removes those from the target) and later changes, and
     * ends equal.
     */
    private static void runAfterDropWorks(OperatorActions s, Path yaml) throws Exception {
        CaptureFixture f = s.f;
        f.sql("UPDATE drop_a SET note = 'changed' WHERE id <= 5", "DELETE FROM drop_a WHERE id BETWEEN 6 AND 10",
                "INSERT INTO drop_a SELECT g, 'again' FROM generate_series(51, 60) g", "DELETE FROM drop_c");
        Path again = s.dir.resolve("again.log");
        Process second = f.spawn(again, "run", "--config", yaml.toString());
        await("the new run applies its snapshot").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .failFast("tidemark run after drop exited", () -> !second.isAlive())
                .until(() -> count(f, "SELECT count(*) FROM drop_a WHERE id BETWEEN 51 AND 60") == 10);
        f.sql("UPDATE drop_b SET note = 'later' WHERE id = 1", "INSERT INTO drop_c VALUES (1000, 'c1000')");
        await("the new run streams later changes").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .failFast("tidemark run after drop exited", () -> !second.isAlive())
                .until(() -> count(f, "SELECT count(*) FROM drop_c WHERE id = 1000") == 1
                        && count(f, "SELECT count(*) FROM drop_b WHERE id = 1 AND note = 'later'") == 1);
        await("the new snapshot over the kept rows (five changed, five deleted, drop_c emptied meanwhile) makes the target equal").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250)).failFast("tidemark run after drop exited", () -> !second.isAlive())
                .until(() -> f.targetEqualsSource("id"));
        stop(second, again);
        assertThat(CaptureFixture.stackTraceLines(again)).as("no stack trace; log:\n" + CaptureFixture.tail(again)).isEmpty();
        assertThat(CaptureFixture.errorLines(again)).isEmpty();
        s.reconcileFindsNoDifference(yaml);
    }

    private static void awaitEqual(CaptureFixture f, Process p, Path log) {
        await("the run applies the snapshot").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .failFast("tidemark run exited; log:\n" + CaptureFixture.tail(log), () -> !p.isAlive())
                .until(() -> f.targetEqualsSource("id"));
    }

    private static void stop(Process p, Path log) throws InterruptedException {
        p.destroy();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("exit code after SIGTERM; log:\n" + CaptureFixture.tail(log)).isZero();
    }

    private static List<String> pipelineFiles(CaptureFixture f, Path stateDir) throws Exception {
        if (!Files.isDirectory(stateDir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(stateDir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(f.name + ".")).sorted().toList();
        }
    }

    /** The event triggers, functions and key tables named {@code tidemark_ddl_…} on the source, sorted. */
    private static List<String> ddlObjects(CaptureFixture f) throws Exception {
        List<String> out = new java.util.ArrayList<>();
        try (Statement s = f.source.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT evtname FROM pg_event_trigger WHERE evtname LIKE 'tidemark\\_ddl\\_%' UNION ALL "
                        + "SELECT proname FROM pg_proc WHERE proname LIKE 'tidemark\\_ddl\\_%' UNION ALL "
                        + "SELECT relname FROM pg_class WHERE relname LIKE 'tidemark\\_ddl\\_%' AND relkind = 'r' ORDER BY 1")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static boolean tableExists(CaptureFixture f, String table) throws Exception {
        try (PreparedStatement ps = f.source.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            ps.setString(1, "public.\"" + table + "\"");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** The keys of {@code topic} whose newest record is not a tombstone (empty when the topic does not exist). */
    private static Set<String> liveKeys(CaptureFixture f, String topic) {
        Map<String, Object> props = Map.of("bootstrap.servers", f.bootstrap, "key.deserializer", ByteArrayDeserializer.class.getName(),
                "value.deserializer", ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props)) {
            List<org.apache.kafka.common.PartitionInfo> infos = c.listTopics(Duration.ofSeconds(30)).get(topic);
            if (infos == null) {
                return Set.of();
            }
            List<TopicPartition> tps = infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            Map<String, Boolean> live = new java.util.TreeMap<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    live.put(new String(r.key(), StandardCharsets.UTF_8), r.value() != null);
                }
            }
            return live.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey)
                    .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
        }
    }

    private static String identity(CaptureFixture f, TableId t) throws Exception {
        try (PreparedStatement ps = f.source.prepareStatement("SELECT c.relreplident FROM pg_class c JOIN pg_namespace n "
                + "ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?")) {
            ps.setString(1, t.schema());
            ps.setString(2, t.table());
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getString(1);
            }
        }
    }

    private static int count(CaptureFixture f, String sql) {
        try (Connection t = DriverManager.getConnection(f.targetUrl())) {
            return count(t, sql);
        } catch (Exception e) {
            return -1;
        }
    }

    private static int count(Connection c, String sql) throws Exception {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
