package dev.tidemark.tests.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.tests.CliRun;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Operator mistakes around the source's privileges, as one table of cases run through {@code tidemark run} in this
 * JVM (stdout, stderr and the exit code captured; log lines go to the captured stderr). Each case connects as its own
 * non-superuser role that lacks exactly one thing capture needs, and must get the exit code, a line naming what is
 * missing with the statement that grants it, no stack trace or exception class name, and nothing created: no topic,
 * no target file, no state folder, no slot, no publication, the table's REPLICA IDENTITY unchanged. A slot that no
 * pipeline created is never dropped or advanced ({@link #aSlotNoPipelineCreatedIsNeverDroppedOrAdvanced}).
 */
class OperatorMistakesSlotsIT {
    /** Never in any output: stack traces and exception class names. */
    private static final List<String> FORBIDDEN = List.of("\\tat [a-z]", "[A-Za-z]Exception\\b", "Caused by");
    private static final String TAG = "p" + ProcessHandle.current().pid();
    private static TestInfrastructure.PgServer server;
    private static String db;

    @TempDir
    Path dir;

    /**
     * One role lacking one privilege.
     *
     * @param table   the case's own table (created owned by the superuser, before {@code setup})
     * @param setup   statements run as the superuser; {@code {role}}, {@code {db}} and {@code {table}} are replaced
     * @param message a pattern one line of the output must match
     */
    record Case(String name, String table, List<String> setup, int exit, String message) {
        @Override
        public String toString() {
            return name;
        }

        String role() {
            return "tm_" + table + "_" + TAG;
        }
    }

    @BeforeAll
    static void source() throws Exception {
        server = TestInfrastructure.postgres();
        db = TestInfrastructure.newDatabase("slots_privileges");
    }

    static Stream<Case> cases() {
        List<Case> c = new ArrayList<>();
        c.add(new Case("a user without REPLICATION is told the ALTER ROLE it needs", "norepl",
                List.of("CREATE ROLE {role} LOGIN NOREPLICATION", "ALTER TABLE {table} OWNER TO {role}", "GRANT CREATE ON DATABASE {db} TO {role}"),
                2, "user \"{role}\" lacks the REPLICATION attribute .*ALTER ROLE \"{role}\" REPLICATION"));
        c.add(new Case("a user that may not read a table is told the GRANT SELECT it needs", "nosel",
                List.of("CREATE ROLE {role} LOGIN REPLICATION", "GRANT CREATE ON DATABASE {db} TO {role}",
                        "CREATE PUBLICATION pub_{table} FOR TABLE {table}", "ALTER PUBLICATION pub_{table} OWNER TO {role}"),
                2, "user \"{role}\" may not read table public\\.{table} .*GRANT SELECT ON \"public\"\\.\"{table}\" TO \"{role}\""));
        c.add(new Case("a user that may not create the publication is told the GRANT CREATE it needs", "nocreate",
                List.of("CREATE ROLE {role} LOGIN REPLICATION", "ALTER TABLE {table} OWNER TO {role}"),
                2, "user \"{role}\" may not create publication \"pub_{table}\" .*GRANT CREATE ON DATABASE \"{db}\" TO \"{role}\""));
        c.add(new Case("a user that may not create the signal table is told the GRANT CREATE ON SCHEMA it needs", "nosignal",
                List.of("CREATE ROLE {role} LOGIN REPLICATION", "ALTER TABLE {table} OWNER TO {role}", "GRANT CREATE ON DATABASE {db} TO {role}",
                        "REVOKE CREATE ON SCHEMA public FROM PUBLIC"),
                2, "user \"{role}\" may not create the pipeline's signal table public\\.tidemark_signal_slot_{table} .*"
                        + "GRANT CREATE ON SCHEMA \"public\" TO \"{role}\""));
        return c.stream();
    }

    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachMissingPrivilegeIsNamedWithItsGrantAndNothingIsCreated(Case c) throws Exception {
        try (Connection con = server.connect(db); Statement s = con.createStatement()) {
            s.execute("CREATE TABLE public." + c.table() + " (id int PRIMARY KEY, note text)");
            s.execute("INSERT INTO public." + c.table() + " VALUES (1, 'one')");
            for (String sql : c.setup()) {
                s.execute(expand(sql, c));
            }
        }
        boolean publicationBefore = publicationExists("pub_" + c.table());
        Files.writeString(dir.resolve("p.yaml"), pipeline(c));
        CliRun r = CliRun.run("run", "-c", dir.resolve("p.yaml").toString());
        String all = r.out() + r.err();
        assertThat(r.exit()).as("exit code; output:%n%s", all).isEqualTo(c.exit());
        String message = expand(c.message(), c);
        assertThat(Pattern.compile(message, Pattern.MULTILINE).matcher(all).find()).as("a line matching /%s/ in:%n%s", message, all).isTrue();
        for (String f : FORBIDDEN) {
            assertThat(Pattern.compile(f).matcher(all).find()).as("/%s/ must not appear in:%n%s", f, all).isFalse();
        }
        assertThat(dir.resolve("t.db")).as("no target file").doesNotExist();
        assertThat(dir.resolve("state")).as("no state folder").doesNotExist();
        assertThat(topics()).as("no topic of the pipeline").noneMatch(t -> t.startsWith(c.table() + "_" + TAG + "."));
        assertThat(slotExists("slot_" + c.table())).as("no replication slot").isFalse();
        assertThat(publicationExists("pub_" + c.table())).as("the publication as it was").isEqualTo(publicationBefore);
        assertThat(replicaIdentity(c.table())).as("REPLICA IDENTITY unchanged").isEqualTo("d");
    }

    /**
     * A slot that exists but that no pipeline created (e.g. made by hand, or another tool's): {@code run}, {@code run
     * --resnapshot} and {@code drop --yes} are refused with one line that advises only the pipeline's own slot; the slot
     * is neither dropped nor advanced, and nothing is created.
     */
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    @org.junit.jupiter.api.Test
    void aSlotNoPipelineCreatedIsNeverDroppedOrAdvanced() throws Exception {
        String table = "preslot";
        String slot = "slot_" + table;
        try (Connection con = server.connect(db); Statement s = con.createStatement()) {
            s.execute("CREATE TABLE public." + table + " (id int PRIMARY KEY, note text)");
            s.execute("SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput')");
        }
        try {
            String confirmed = confirmedFlush(slot);
            Path file = dir.resolve("p.yaml");
            Files.writeString(file, "name: " + table + "_" + TAG + "\nsource:\n  url: '" + server.jdbcUrl(db) + "'\n  user: " + server.user()
                    + "\n  tables: [public." + table + "]\n  slot: " + slot + "\n  publication: pub_" + table
                    + "\nkafka:\n  bootstrapServers: " + TestInfrastructure.kafkaBootstrap() + "\ntarget:\n  url: 'jdbc:sqlite:t.db'\nstateDir: state\n");
            for (List<String> args : List.of(List.of("run"), List.of("run", "--resnapshot"), List.of("drop", "--yes"))) {
                List<String> argv = new ArrayList<>(args);
                argv.addAll(List.of("-c", file.toString()));
                CliRun r = CliRun.run(argv.toArray(String[]::new));
                String all = r.out() + r.err();
                assertThat(r.exit()).as("exit code of %s; output:%n%s", argv, all).isEqualTo(3);
                List<String> lines = all.lines().filter(l -> l.startsWith("tidemark: ")).toList();
                assertThat(lines).as("one line; output:%n%s", all).singleElement().asString()
                        .contains("replication slot \"" + slot + "\" exists but pipeline " + table + "_" + TAG + " did not create it",
                                "set source.slot in " + file + " to a name no other pipeline uses")
                        .doesNotContain("--resnapshot");
                for (String f : FORBIDDEN) {
                    assertThat(Pattern.compile(f).matcher(all).find()).as("/%s/ must not appear in:%n%s", f, all).isFalse();
                }
                assertThat(confirmedFlush(slot)).as("the slot after %s: still there, not advanced", argv).isEqualTo(confirmed);
            }
            assertThat(dir.resolve("t.db")).as("no target file").doesNotExist();
            assertThat(dir.resolve("state")).as("no state folder").doesNotExist();
            assertThat(publicationExists("pub_" + table)).as("no publication").isFalse();
        } finally {
            try (Connection con = server.connect(db); Statement s = con.createStatement()) {
                s.execute("SELECT pg_drop_replication_slot('" + slot + "')");
            }
        }
    }

    private static String confirmedFlush(String slot) throws SQLException {
        try (Connection con = server.connect(db); PreparedStatement ps = con.prepareStatement(
                "SELECT coalesce(confirmed_flush_lsn::text, 'none') FROM pg_replication_slots WHERE slot_name = ?")) {
            ps.setString(1, slot);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static String expand(String s, Case c) {
        return s.replace("{role}", c.role()).replace("{db}", db).replace("{table}", c.table());
    }

    private static String pipeline(Case c) {
        return "name: " + c.table() + "_" + TAG + "\nsource:\n  url: '" + server.jdbcUrl(db) + "'\n  user: " + c.role()
                + "\n  tables: [public." + c.table() + "]\n  slot: slot_" + c.table() + "\n  publication: pub_" + c.table()
                + "\nkafka:\n  bootstrapServers: " + TestInfrastructure.kafkaBootstrap() + "\ntarget:\n  url: 'jdbc:sqlite:t.db'\nstateDir: state\n";
    }

    private static Set<String> topics() throws Exception {
        try (Admin admin = Admin.create(java.util.Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestInfrastructure.kafkaBootstrap()))) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS);
        }
    }

    private static boolean slotExists(String slot) throws SQLException {
        return exists("SELECT 1 FROM pg_replication_slots WHERE slot_name = ?", slot);
    }

    private static boolean publicationExists(String publication) throws SQLException {
        return exists("SELECT 1 FROM pg_publication WHERE pubname = ?", publication);
    }

    private static boolean exists(String sql, String name) throws SQLException {
        try (Connection con = server.connect(db); PreparedStatement ps = con.prepareStatement(sql)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static String replicaIdentity(String table) throws SQLException {
        try (Connection con = server.connect(db); Statement s = con.createStatement();
             ResultSet rs = s.executeQuery("SELECT relreplident FROM pg_class WHERE oid = 'public." + table + "'::regclass")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
