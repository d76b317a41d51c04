package dev.tidemark.tests.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.tests.CliRun;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Operator mistakes that must be refused before anything changes (issue 21), in the table-driven style of
 * {@link BadInputCorpusIT}: each case runs the {@code tidemark} command in this JVM against a source database of its
 * own ({@code {pg}}: {@code public.orders} with two rows, primary key, replica identity default), and then checks
 * that the source is exactly as it was: no new table, no slot, no publication, replica identity unchanged, no
 * {@code __tidemark_position} column, and no state folder.
 *
 * <p>Placeholders: {@code {dir}} the case's folder; {@code {pg}} the case's source URL; {@code {pg-other}} the same
 * database written another way (an extra URL parameter), so "same database" cannot be decided by URL text;
 * {@code {kafka}} the test broker.
 */
class OperatorMistakesGuardIT {
    private static final List<String> ALWAYS_FORBIDDEN = List.of("\\tat [a-z]", "[A-Za-z]Exception\\b", "Cannot invoke");

    private static final String RELATIONS = "SELECT table_schema || '.' || table_name FROM information_schema.tables "
            + "WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1";

    @TempDir
    Path dir;

    /** One mistake: the command line, the pipeline file, extra source SQL, the exit code and the line expected. */
    record Case(String name, List<String> argv, String file, List<String> sourceSql, int exit, String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        List<Case> c = new ArrayList<>();
        // ---- item 1: a target pointed at the source
        c.add(new Case("run: target.url is the source database (written another way)", List.of("run", "-c", "{dir}/p.yaml"),
                pipeline("{pg}", "[public.orders]", "{kafka}", "{pg-other}"), List.of(), 2,
                "target\\.url jdbc:postgresql://.* is the source database \\(source\\.url jdbc:postgresql://.*\\).*point target\\.url at another database"));
        c.add(new Case("sink: target.url is the source database", List.of("sink", "-c", "{dir}/p.yaml"),
                pipeline("{pg}", "[public.orders]", "{kafka}", "{pg-other}"), List.of(), 2,
                "target\\.url jdbc:postgresql://.* is the source database \\(source\\.url jdbc:postgresql://.*\\).*point target\\.url at another database"));
        c.add(new Case("capture: target.url is the source database", List.of("capture", "-c", "{dir}/p.yaml"),
                pipeline("{pg}", "[public.orders]", "{kafka}", "{pg}"), List.of(), 2,
                "target\\.url jdbc:postgresql://.* is the source database"));
        c.add(new Case("run: a captured table has a column named like the sink's position column but is no Tidemark target",
                List.of("run", "-c", "{dir}/p.yaml"), pipeline("{pg}", "[public.orders]", "{kafka}", "jdbc:sqlite:t.db"),
                List.of("ALTER TABLE public.orders ADD COLUMN __tidemark_position text"), 2,
                "table public\\.orders has a column \"__tidemark_position\".*source\\.excludeColumns.*target\\.positionColumn"));
        // ---- item 13: the request is wrong (exit 2), and a view is called a view
        c.add(new Case("run: a table without primary key exits 2", List.of("run", "-c", "{dir}/p.yaml"),
                pipeline("{pg}", "[public.nopk]", "{kafka}", "jdbc:sqlite:t.db"), List.of("CREATE TABLE public.nopk (id int, note text)"), 2,
                "table public\\.nopk has no primary key"));
        c.add(new Case("run: a view is refused as a view, not as a table without primary key", List.of("run", "-c", "{dir}/p.yaml"),
                pipeline("{pg}", "[public.orders_view]", "{kafka}", "jdbc:sqlite:t.db"),
                List.of("CREATE VIEW public.orders_view AS SELECT * FROM public.orders"), 2,
                "public\\.orders_view is a view: logical replication captures tables only"));
        // ---- item 10: table names and topic names
        c.add(new Case("run: a kafka.topicPrefix that makes no valid topic name is refused naming the table and its topic",
                List.of("run", "-c", "{dir}/p.yaml"), pipeline("{pg}", "[public.orders]", "{kafka}", "jdbc:sqlite:t.db")
                        .replace("kafka:\n", "kafka:\n  topicPrefix: 'my orders'\n"), List.of(), 2,
                "kafka\\.topicPrefix: table public\\.orders: topic 'my orders\\.public\\.orders' is not a valid Kafka topic name"));
        c.add(new Case("run: kafka.topics naming an invalid topic is refused naming its key",
                List.of("run", "-c", "{dir}/p.yaml"), pipeline("{pg}", "[public.orders]", "{kafka}", "jdbc:sqlite:t.db")
                        .replace("kafka:\n", "kafka:\n  topics: {public.orders: 'Order Items'}\n"), List.of(), 2,
                "Invalid value Order Items for configuration kafka\\.topics\\.public\\.orders: a topic name has only letters"));
        c.add(new Case("run: kafka.topics naming a table that is not captured",
                List.of("run", "-c", "{dir}/p.yaml"), pipeline("{pg}", "[public.orders]", "{kafka}", "jdbc:sqlite:t.db")
                        .replace("kafka:\n", "kafka:\n  topics: {public.invoices: invoices}\n"), List.of(), 2,
                "configuration kafka\\.topics\\.public\\.invoices: public\\.invoices is not in source\\.tables"));
        return c.stream();
    }

    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachMistakeIsRefusedBeforeAnythingChanges(Case c) throws Exception {
        TestInfrastructure.PgServer server = TestInfrastructure.postgres();
        String db = TestInfrastructure.newDatabase("guard");
        try (Connection con = server.connect(db); Statement s = con.createStatement()) {
            s.execute("CREATE TABLE public.orders (id int PRIMARY KEY, note text)");
            s.execute("INSERT INTO public.orders VALUES (1, 'one'), (2, 'two')");
            for (String sql : c.sourceSql()) {
                s.execute(sql);
            }
        }
        List<String> columnsBefore = columns(server, db);
        List<String> relationsBefore;
        try (Connection con = server.connect(db); Statement s = con.createStatement()) {
            relationsBefore = strings(s, RELATIONS);
        }
        String pg = server.jdbcUrl(db);
        String file = c.file().replace("{dir}", dir.toString()).replace("{pg-other}", pg + "?ApplicationName=copy")
                .replace("{pg}", pg).replace("{kafka}", TestInfrastructure.kafkaBootstrap()).replace("{name}", db)
                .replace("{pguser}", server.user());
        Files.writeString(dir.resolve("p.yaml"), file);
        String[] argv = c.argv().stream().map(a -> a.replace("{dir}", dir.toString())).toArray(String[]::new);

        CliRun r = CliRun.run(argv);

        String all = r.out() + r.err();
        assertThat(r.exit()).as("exit code of %s; output:%n%s", String.join(" ", argv), all).isEqualTo(c.exit());
        assertThat(Pattern.compile(c.message(), Pattern.MULTILINE).matcher(all).find())
                .as("a line matching /%s/ in:%n%s", c.message(), all).isTrue();
        for (String f : ALWAYS_FORBIDDEN) {
            assertThat(Pattern.compile(f).matcher(all).find()).as("/%s/ must not appear in:%n%s", f, all).isFalse();
        }
        try (Connection con = server.connect(db); Statement s = con.createStatement()) {
            assertThat(strings(s, RELATIONS)).as("no table created in the source").isEqualTo(relationsBefore);
            assertThat(strings(s, "SELECT slot_name FROM pg_replication_slots WHERE database = current_database()"))
                    .as("no slot created").isEmpty();
            assertThat(strings(s, "SELECT pubname FROM pg_publication")).as("no publication created").isEmpty();
            assertThat(strings(s, "SELECT relreplident::text FROM pg_class WHERE oid = 'public.orders'::regclass"))
                    .as("replica identity unchanged").containsExactly("d");
            assertThat(strings(s, "SELECT count(*)::text FROM public.orders")).as("rows unchanged").containsExactly("2");
        }
        assertThat(columns(server, db)).as("the source table's columns unchanged").isEqualTo(columnsBefore);
        assertThat(dir.resolve("state")).as("no state folder created before the refusal").doesNotExist();
        assertThat(dir.resolve("t.db")).as("no target file created before the refusal").doesNotExist();
    }

    private static List<String> columns(TestInfrastructure.PgServer server, String db) throws SQLException {
        try (Connection con = server.connect(db); Statement s = con.createStatement()) {
            return strings(s, "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' "
                    + "AND table_name = 'orders' ORDER BY ordinal_position");
        }
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

    /** A pipeline file; {@code tables} as written after {@code tables:}. */
    static String pipeline(String sourceUrl, String tables, String kafka, String targetUrl) {
        return "name: {name}\nsource:\n  url: '" + sourceUrl + "'\n  tables: " + tables + "\nkafka:\n  bootstrapServers: " + kafka
                + "\ntarget:\n  url: '" + targetUrl + "'\n" + (targetUrl.startsWith("jdbc:sqlite") ? "" : "  user: {pguser}\n")
                + "stateDir: state\n";
    }
}
