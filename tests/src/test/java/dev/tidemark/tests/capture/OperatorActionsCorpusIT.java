package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import dev.tidemark.tests.ChildJvm;
import dev.tidemark.tests.CliRun;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The operator actions of issue 21 ("Recovery that works": items 1–7, 10 and 11) as one corpus, in the table-driven
 * shape of {@code BadInputCorpusIT}, over the one PostgreSQL and the one Kafka the suite shares (each case has a
 * database, slot, topic prefix and state folder of its own).
 *
 * <p>{@link #eachActionIsRefusedBeforeAnythingChanges}: actions refused before anything changes. Each runs one
 * {@code tidemark} command in this JVM and must get its exit code, one {@code tidemark:} line that (with the problems
 * it lists under it, one per indented line) matches the case's pattern, no stack trace or exception name, and nothing left behind: no table, column, slot, publication or topic
 * created (a slot or publication that was there is there as it was, not advanced), REPLICA IDENTITY and rows unchanged,
 * no state folder and no target file. Where the line names the statements that grant a missing privilege, they are run
 * as written and the same command then captures.
 *
 * <p>{@link #eachStopIsRecoveredByTheCommandItsLineNames}: actions after which the pipeline stops or is refused on one
 * line whose way on is then followed word for word (the commands are parsed out of the line and run as written), ending
 * with a target equal to the source, which {@code tidemark reconcile} confirms ({@link OperatorActions}; item 4's
 * {@code --accept-gap} in {@link AcceptGapActions}; item 6's {@code drop --topics --yes}, checked to leave nothing
 * behind, then {@code run}, in {@link DropActions}).
 */
class OperatorActionsCorpusIT {
    private static final List<String> FORBIDDEN = List.of("\\tat [a-z]", "[A-Za-z]Exception\\b", "Caused by", "Cannot invoke");
    private static final String RELATIONS = "SELECT table_schema || '.' || table_name FROM information_schema.tables "
            + "WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1";
    private static final String COLUMNS = "SELECT table_name || '.' || column_name FROM information_schema.columns "
            + "WHERE table_schema = 'public' ORDER BY 1";
    private static final String SLOTS = "SELECT slot_name || ' ' || coalesce(confirmed_flush_lsn::text, '-') FROM pg_replication_slots "
            + "WHERE database = current_database() ORDER BY 1";
    private static final String PUBLICATIONS = "SELECT pubname || ' ' || coalesce(obj_description(oid, 'pg_publication'), '') "
            + "FROM pg_publication ORDER BY 1";

    @TempDir
    Path dir;

    /**
     * One action refused before anything changes. Its source database holds {@code public.orders} (primary key, two
     * rows, REPLICA IDENTITY DEFAULT) before {@code setup} runs there as the superuser.
     *
     * @param argv    the command line; {@code {dir}} is the case's folder, the pipeline file is {@code {dir}/p.yaml}
     * @param file    the pipeline file ({@link #PIPELINE} unless the case changes it)
     * @param setup   statements run as the superuser first
     * @param message a pattern the one line must match
     *                <p>Placeholders in all of these: {@code {name}} the case's database, also the pipeline's name, slot
     *                ({@code slot_{name}}), publication ({@code pub_{name}}) and topic prefix; {@code {role}} the role it
     *                connects as where a case creates one ({@code {user}} in the file: that role, else the superuser);
     *                {@code {pg}} the source URL, {@code {pg-other}} the same database written another way;
     *                {@code {kafka}} the broker.
     */
    record Refusal(String name, List<String> argv, String file, List<String> setup, int exit, String message) {
        @Override
        public String toString() {
            return name;
        }

        boolean hasRole() {
            return setup.stream().anyMatch(s -> s.startsWith("CREATE ROLE {role}"));
        }
    }

    private static final String PIPELINE = "name: {name}\nsource:\n  url: '{pg}'\n  user: {user}\n  tables: [public.orders]\n"
            + "  slot: slot_{name}\n  publication: pub_{name}\nkafka:\n  bootstrapServers: {kafka}\n  topicPrefix: {name}\n"
            + "target:\n  url: 'jdbc:sqlite:t.db'\nstateDir: state\n";

    static Stream<Refusal> refusals() {
        String run = "run";
        List<Refusal> c = new ArrayList<>();
        // ---- 1: a target pointed at the source
        String toSource = PIPELINE.replace("url: 'jdbc:sqlite:t.db'", "url: '{pg-other}'\n  user: {user}");
        String sameDb = "target\\.url jdbc:postgresql://.* is the source database \\(source\\.url jdbc:postgresql://.*\\).*"
                + "point target\\.url at another database";
        c.add(refusal("1 run: target.url is the source database (written another way)", List.of(run), toSource, List.of(), 2, sameDb));
        c.add(refusal("1 sink: target.url is the source database", List.of("sink"), toSource, List.of(), 2, sameDb));
        c.add(refusal("1 capture: target.url is the source database", List.of("capture"), toSource.replace("{pg-other}", "{pg}"), List.of(),
                2, "target\\.url jdbc:postgresql://.* is the source database"));
        c.add(refusal("1 run: a captured table has a column named like the sink's position column but is no Tidemark target",
                List.of(run), PIPELINE, List.of("ALTER TABLE public.orders ADD COLUMN __tidemark_position text"), 2,
                "table public\\.orders has a column \"__tidemark_position\".*source\\.excludeColumns.*target\\.positionColumn"));
        // ---- 2: a slot that is not the pipeline's (another pipeline's: OperatorActions.anotherPipelinesSlot)
        String noOwner = "^(?!.*--resnapshot)tidemark: .*replication slot \"slot_{name}\" exists but pipeline {name} did not create it.*"
                + "set source\\.slot in \\S+p\\.yaml to a name no other pipeline uses";
        List<String> handMade = List.of("SELECT pg_create_logical_replication_slot('slot_{name}', 'pgoutput')");
        for (List<String> argv : List.of(List.of(run), List.of(run, "--resnapshot"), List.of("drop", "--yes"))) {
            c.add(refusal("2 " + String.join(" ", argv) + ": a slot no pipeline created is neither dropped nor advanced", argv, PIPELINE,
                    handMade, 3, noOwner));
        }
        // ---- 3: a missing privilege, named with its statement
        c.add(refusal("3 a user without REPLICATION is told the ALTER ROLE it needs", List.of(run), PIPELINE,
                List.of("CREATE ROLE {role} LOGIN NOREPLICATION", "ALTER TABLE orders OWNER TO {role}", "GRANT CREATE ON DATABASE {name} TO {role}"),
                2, "user \"{role}\" lacks the REPLICATION attribute .*ALTER ROLE \"{role}\" REPLICATION"));
        c.add(refusal("3 a user that may not read a table is told the GRANT SELECT it needs", List.of(run), PIPELINE,
                List.of("CREATE ROLE {role} LOGIN REPLICATION", "GRANT CREATE ON DATABASE {name} TO {role}",
                        "CREATE PUBLICATION pub_{name} FOR TABLE orders", "ALTER PUBLICATION pub_{name} OWNER TO {role}"),
                2, "user \"{role}\" may not read table public\\.orders .*GRANT SELECT ON \"public\"\\.\"orders\" TO \"{role}\""));
        c.add(refusal("3 a user that may not create the publication is told the GRANT CREATE it needs", List.of(run), PIPELINE,
                List.of("CREATE ROLE {role} LOGIN REPLICATION", "ALTER TABLE orders OWNER TO {role}"),
                2, "user \"{role}\" may not create publication \"pub_{name}\" .*GRANT CREATE ON DATABASE \"{name}\" TO \"{role}\""));
        c.add(refusal("3 a user that may not create the signal table is told the GRANT CREATE ON SCHEMA it needs", List.of(run), PIPELINE,
                List.of("CREATE ROLE {role} LOGIN REPLICATION", "ALTER TABLE orders OWNER TO {role}", "GRANT CREATE ON DATABASE {name} TO {role}",
                        "REVOKE CREATE ON SCHEMA public FROM PUBLIC"),
                2, "user \"{role}\" may not create the pipeline's signal table public\\.tidemark_signal_slot_{name} .*"
                        + "GRANT CREATE ON SCHEMA \"public\" TO \"{role}\""));
        // ---- 10: table names and topic names
        c.add(refusal("10 run: a kafka.topicPrefix that makes no valid topic name is refused naming the table and its topic", List.of(run),
                PIPELINE.replace("topicPrefix: {name}", "topicPrefix: 'my orders'"), List.of(), 2,
                "kafka\\.topicPrefix: table public\\.orders: topic 'my orders\\.public\\.orders' is not a valid Kafka topic name"));
        c.add(refusal("10 run: kafka.topics naming an invalid topic is refused naming its key", List.of(run),
                PIPELINE.replace("kafka:\n", "kafka:\n  topics: {public.orders: 'Order Items'}\n"), List.of(), 2,
                "Invalid value Order Items for configuration kafka\\.topics\\.public\\.orders: a topic name has only letters"));
        c.add(refusal("10 run: kafka.topics naming a table that is not captured", List.of(run),
                PIPELINE.replace("kafka:\n", "kafka:\n  topics: {public.invoices: invoices}\n"), List.of(), 2,
                "configuration kafka\\.topics\\.public\\.invoices: public\\.invoices is not in source\\.tables"));
        // ---- 13: the request is wrong (exit 2), and a view is called a view
        c.add(refusal("13 run: a table without primary key exits 2", List.of(run), PIPELINE.replace("public.orders]", "public.nopk]"),
                List.of("CREATE TABLE public.nopk (id int, note text)"), 2, "table public\\.nopk has no primary key"));
        c.add(refusal("13 run: a view is refused as a view, not as a table without primary key", List.of(run),
                PIPELINE.replace("public.orders]", "public.orders_view]"), List.of("CREATE VIEW public.orders_view AS SELECT * FROM public.orders"),
                2, "public\\.orders_view is a view: logical replication captures tables only"));
        return c.stream();
    }

    private static Refusal refusal(String name, List<String> command, String file, List<String> setup, int exit, String message) {
        List<String> argv = new ArrayList<>(command);
        argv.addAll(List.of("-c", "{dir}/p.yaml"));
        return new Refusal(name, argv, file, setup, exit, message);
    }

    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void eachActionIsRefusedBeforeAnythingChanges(Refusal c) throws Exception {
        TestInfrastructure.PgServer server = TestInfrastructure.postgres();
        String db = TestInfrastructure.newDatabase("actions");
        String role = c.hasRole() ? "tm_" + db : server.user();
        java.util.function.UnaryOperator<String> expand = s -> s.replace("{dir}", dir.toString())
                .replace("{pg-other}", server.jdbcUrl(db) + "?ApplicationName=copy").replace("{pg}", server.jdbcUrl(db))
                .replace("{kafka}", TestInfrastructure.kafkaBootstrap()).replace("{name}", db).replace("{role}", role).replace("{user}", role);
        try (Connection con = server.connect(db); Statement s = con.createStatement()) {
            s.execute("CREATE TABLE public.orders (id int PRIMARY KEY, note text)");
            s.execute("INSERT INTO public.orders VALUES (1, 'one'), (2, 'two')");
            for (String sql : c.setup()) {
                s.execute(expand.apply(sql));
            }
        }
        try {
            List<String> before = sourceState(server, db);
            Files.writeString(dir.resolve("p.yaml"), expand.apply(c.file()));
            String[] argv = c.argv().stream().map(expand).toArray(String[]::new);

            CliRun r = CliRun.run(argv);

            String all = r.out() + r.err();
            assertThat(r.exit()).as("exit code of %s; output:%n%s", String.join(" ", argv), all).isEqualTo(c.exit());
            String message = expand.apply(c.message());
            List<String> lines = r.err().lines().filter(l -> l.startsWith("tidemark: ")).toList();
            assertThat(lines).as("one line; output:%n%s", all).hasSize(1);
            String listed = listedWith(r.err(), lines.get(0));
            assertThat(Pattern.compile(message).matcher(listed).find()).as("/%s/ in the line and the problems it lists:%n%s", message, listed)
                    .isTrue();
            for (String f : FORBIDDEN) {
                assertThat(Pattern.compile(f).matcher(all).find()).as("/%s/ must not appear in:%n%s", f, all).isFalse();
            }
            assertThat(sourceState(server, db)).as("the source as it was (relations, columns, slots, publications, identity, rows)")
                    .isEqualTo(before);
            assertThat(dir.resolve("state")).as("no state folder").doesNotExist();
            assertThat(dir.resolve("t.db")).as("no target file").doesNotExist();
            assertThat(topics()).as("no topic of the pipeline").noneMatch(t -> t.startsWith(db + "."));
            if (c.hasRole()) {
                statementsFollowed(server, db, listed, argv);
            }
        } finally {
            try (Connection con = server.connect(db); Statement s = con.createStatement()) {
                s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = current_database()");
            }
        }
    }

    /** The {@code tidemark:} line with the problems it lists under it (lines indented by two spaces). */
    private static String listedWith(String err, String line) {
        List<String> after = err.lines().dropWhile(l -> !l.equals(line)).skip(1).takeWhile(l -> l.startsWith("  ")).toList();
        return String.join("\n", java.util.stream.Stream.concat(Stream.of(line), after.stream()).toList());
    }

    /**
     * Runs every statement the privilege line names ({@code … run: STATEMENT)}) as the superuser, then the refused
     * command again in a child JVM: it must now capture the table into the target.
     */
    private void statementsFollowed(TestInfrastructure.PgServer server, String db, String line, String[] argv) throws Exception {
        Matcher m = Pattern.compile("run: ((?:ALTER|GRANT) [^)]*)\\)").matcher(line);
        List<String> statements = new ArrayList<>();
        while (m.find()) {
            statements.add(m.group(1));
        }
        assertThat(statements).as("the statements in: %s", line).isNotEmpty();
        try (Connection con = server.connect(db); Statement s = con.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
        List<String> cmd = ChildJvm.tidemark(List.of("-Xmx384m", "-XX:+UseSerialGC"), argv);
        Path log = dir.resolve("after-statements.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            await("after " + statements + " the same command captures the table").atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250)).failFast("tidemark exited: " + log, () -> !p.isAlive())
                    .until(() -> targetRows(dir.resolve("t.db")) == 2);
        } catch (org.awaitility.core.ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
            throw new AssertionError(e.getMessage() + "\n" + CaptureFixture.tail(log), e);
        } finally {
            p.destroy();
            p.waitFor(60, TimeUnit.SECONDS);
        }
    }

    private static int targetRows(Path sqlite) {
        if (!Files.exists(sqlite)) {
            return 0;
        }
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + sqlite); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM orders")) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (SQLException e) {
            return 0; // not created yet
        }
    }

    /** Everything a refused action must leave as it was on the source. */
    private static List<String> sourceState(TestInfrastructure.PgServer server, String db) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection con = server.connect(db); Statement s = con.createStatement()) {
            for (String sql : List.of(RELATIONS, COLUMNS, SLOTS, PUBLICATIONS,
                    "SELECT relname || ' ' || relreplident::text FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' ORDER BY 1",
                    "SELECT count(*)::text FROM public.orders")) {
                out.add(String.join(", ", strings(s, sql)));
            }
        }
        return out;
    }

    private static List<String> strings(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    static Set<String> topics() throws Exception {
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", TestInfrastructure.kafkaBootstrap()))) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * One action after which the pipeline stops (or is refused) and its line's way on is followed word for word.
     *
     * @param tables the captured tables of its pipeline
     * @param play   the scenario: the world before the action, the action, the line, the commands followed
     */
    record Recovery(String name, List<TableId> tables, OperatorActions.Scenario play) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Recovery> recoveries() {
        List<TableId> orders = List.of(OperatorActions.ORDERS);
        List<TableId> ledger = List.of(AcceptGapActions.LEDGER);
        return Stream.of(
                new Recovery("2 another running pipeline's slot: refused (run, --resnapshot, --accept-gap, drop) naming its owner; "
                        + "the advice followed runs on a slot of its own", orders, OperatorActions::anotherPipelinesSlot),
                new Recovery("4 --accept-gap after pg_replication_slot_advance while stopped: refused naming it; followed, the gap "
                        + "recorded, the next run resumes, the WARN line's repair ends equal", ledger, AcceptGapActions::slotAdvancedWhileStopped),
                new Recovery("4 --accept-gap after an older copy of the offsets file was put back: refused naming it; followed, the "
                        + "WARN line's repair ends equal", ledger, AcceptGapActions::olderOffsetsFilePutBack),
                new Recovery("4 an older offsets file alone put back (its .delivered covering the slot): a plain run resumes, no gap",
                        ledger, AcceptGapActions::olderOffsetsFileAlonePutBack),
                new Recovery("4 --accept-gap after an offsets file from before a re-snapshot was put back: refused naming it; followed, "
                        + "the WARN line's repair ends equal", ledger, AcceptGapActions::offsetsFileFromBeforeAResnapshotPutBack),
                new Recovery("5 retention deleted records the target never applied: run (its sink stopping while capture starts), "
                        + "then sink, stop naming the flag and the table's snapshot; both followed for each", orders, OperatorActions::retentionDeletedUnappliedRecords),
                new Recovery("5, 6 topics deleted by hand while stopped: run, sink and status refuse creating nothing; the run's "
                        + "two commands followed", orders, OperatorActions::topicsDeletedWhileStopped),
                new Recovery("6 drop --topics --yes leaves nothing Tidemark created and restores what it changed; run then applies "
                        + "the new snapshot and ends equal", List.of(DropActions.A, DropActions.B, DropActions.C), DropActions::dropTopicsThenRun),
                new Recovery("a target table the sink wrote, dropped while run runs: the run stops naming the pipeline file and "
                        + "the table's snapshot; both commands followed end equal", List.of(TargetDropActions.ACCOUNTS),
                        TargetDropActions::targetTableDroppedWhileRunning),
                new Recovery("a target table the sink wrote, dropped while sink runs beside capture: the sink stops naming the "
                        + "snapshot with capture stopped, then sink, then capture; followed in that order, ends equal",
                        List.of(TargetDropActions.ACCOUNTS), TargetDropActions::targetTableDroppedWhileSinkRuns),
                new Recovery("capture stopped before it stored a first position: its WARN line names the whole re-snapshot "
                        + "command; the next plain start refuses; the command followed ends equal", List.of(FirstPositionActions.LEDGER),
                        FirstPositionActions::stoppedBeforeItsFirstPosition),
                new Recovery("7 a second run of a running pipeline is refused at once naming who holds it", List.of(OperatorActions.TICKETS),
                        OperatorActions::secondRun),
                new Recovery("11 Ctrl-C during the initial snapshot says what it means; the re-snapshot it names ends equal",
                        List.of(OperatorActions.BULK), OperatorActions::ctrlCDuringTheInitialSnapshot));
    }

    @Timeout(value = 420, unit = TimeUnit.SECONDS)
    @ParameterizedTest(name = "{0}")
    @MethodSource("recoveries")
    void eachStopIsRecoveredByTheCommandItsLineNames(Recovery c) throws Exception {
        try (CaptureFixture f = new CaptureFixture("actions", dir, c.tables())) {
            c.play().play(new OperatorActions(f));
        }
    }

    /** The backticked {@code tidemark …} commands of {@code line}, without {@code tidemark}, in order. */
    static List<String> commands(String line) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("`tidemark ([^`]*)`").matcher(line);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
