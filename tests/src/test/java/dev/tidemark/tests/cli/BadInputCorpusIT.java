package dev.tidemark.tests.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.tests.CliRun;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad-input corpus of issue 12 ("the first hour"): every wrong step a new user took, as one table of cases run
 * through the {@code tidemark} command in this JVM (stdout, stderr and the exit code captured; the log goes to the
 * captured stderr). Each case gives the command line, the files it needs (config files, a SQLite source), the exit
 * code, a pattern one line of the output must match, and patterns that must not appear anywhere: no stack trace, no
 * internal type name, and never the secret canary ({@code CANARY-…}, put into JDBC URLs and password keys), which is
 * also searched for in every file the command left in the case's folder (state directory, targets).
 *
 * <p>Placeholders in arguments and files: {@code {dir}} the case's own folder (the process runs elsewhere: the
 * current directory is the module folder, which is how relative paths are shown to follow the config file),
 * {@code {pg}} a PostgreSQL database with {@code public.orders} (primary key), {@code public.nopk} (none) and
 * {@code public.items} (the rows of the SQLite source {@code src.db}, without its {@code modified} column).
 */
class BadInputCorpusIT {
    private static final String CANARY = "CANARY-7f3a";
    /** Never in any output: the canary, stack traces, exception class names, records printed by toString. */
    private static final List<String> ALWAYS_FORBIDDEN = List.of(Pattern.quote(CANARY), "\\tat [a-z]", "[A-Za-z]Exception\\b",
            "[A-Z][a-z]+\\[\\]", "Cannot invoke");
    private static String pg;
    /** kafka.properties lines naming a key store and a trust store that do not exist. */
    private static final String MISSING_STORES = "    ssl.keystore.location: '{dir}/missing-key.p12'\n"
            + "    ssl.truststore.location: '{dir}/missing-trust.p12'\n";

    @TempDir
    Path dir;

    /** One wrong (or first) step and what the user must see. */
    record Case(String name, List<String> argv, Map<String, String> files, boolean sqliteSource, int exit, String message,
                List<String> forbidden, Check after) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A check of what the command left behind (or did not). */
    @FunctionalInterface
    interface Check {
        void verify(Path dir) throws Exception;
    }

    @BeforeAll
    static void source() throws Exception {
        TestInfrastructure.PgServer server = TestInfrastructure.postgres();
        String db = TestInfrastructure.newDatabase("corpus");
        pg = server.jdbcUrl(db);
        try (Connection c = server.connect(db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE public.orders (id int PRIMARY KEY, note text)");
            s.execute("INSERT INTO public.orders VALUES (1, 'one'), (2, 'two')");
            s.execute("CREATE TABLE public.nopk (id int, note text)");
            s.execute("CREATE TABLE public.items (id int PRIMARY KEY, name text)");
            s.execute("INSERT INTO public.items VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        }
    }

    static Stream<Case> cases() {
        List<Case> c = new ArrayList<>();
        // ---- the command itself, help
        c.add(fails("bare tidemark lists every command", 2, "choose a command: .*run.*capture.*sink.*watermark.*reconcile.*compare.*status"));
        c.add(ok("tidemark help", "^Commands:", "help"));
        c.add(ok("tidemark help watermark", "Usage: tidemark watermark", "help", "watermark"));
        c.add(fails("unknown command is named", 2, "'frobnicate'", "frobnicate"));
        // ---- run
        c.add(fails("run with a misspelt option names it", 2, "unknown option '--confg'.*did you mean --config", "run", "--confg", "x"));
        c.add(fails("run without --config", 2, "Missing required option.*--config", "run"));
        c.add(fails("run with a missing config file", 2, "cannot read file: .*nosuch\\.yaml", "run", "-c", "{dir}/nosuch.yaml"));
        c.add(withFile("run: YAML syntax error gives line and column", 2, "not valid YAML at line 4, column 9: while parsing a flow sequence",
                "name: a\nsource:\n  url: [jdbc:postgresql://h/db\n  tables: x\n", "run", "-c", "{dir}/p.yaml"));
        c.add(withFile("run: tables as a string says expected a list", 2, "source\\.tables.*expected a list",
                pipeline("jdbc:postgresql://h/db", "public.orders", "x:1", "jdbc:sqlite:t.db"), "run", "-c", "{dir}/p.yaml"));
        c.add(withFile("run: unknown key is named", 2, "Unknown configuration targt",
                pipeline("jdbc:postgresql://h/db", "[public.orders]", "x:1", "jdbc:sqlite:t.db").replace("target:", "targt:"),
                "run", "-c", "{dir}/p.yaml"));
        c.add(withFile("run: MySQL source URL with a password parameter is masked", 2, "password=\\[hidden\\] for configuration source\\.url: CDC needs a jdbc:postgresql",
                pipeline("jdbc:mysql://h:3306/db?user=u&password=" + CANARY, "[public.orders]", "x:1", "jdbc:sqlite:t.db"),
                "run", "-c", "{dir}/p.yaml"));
        c.add(withFile("run: user:password@ in a URL is masked", 2, "//u:\\[hidden\\]@h:3306/db for configuration source\\.url",
                pipeline("jdbc:mysql://u:" + CANARY + "@h:3306/db", "[public.orders]", "x:1", "jdbc:sqlite:t.db"),
                "run", "-c", "{dir}/p.yaml"));
        c.add(withFile("run: Oracle target is a config error listing the supported ones", 2,
                "target\\.url.*jdbc:oracle.*supported.*jdbc:sqlite.*jdbc:postgresql.*jdbc:mariadb",
                pipeline("jdbc:postgresql://h/db", "[public.orders]", "x:1", "jdbc:oracle:thin:@h:1521/x"), "run", "-c", "{dir}/p.yaml"));
        c.add(withFile("run: MySQL target with a password parameter: config error, masked", 2, "target\\.url.*jdbc:mysql.*supported",
                pipeline("jdbc:postgresql://h/db", "[public.orders]", "x:1", "jdbc:mysql://h/db?password=" + CANARY),
                "run", "-c", "{dir}/p.yaml"));
        c.add(withFile("run: a zero partition count", 2, "Invalid value 0 for configuration kafka\\.partitions",
                pipeline("jdbc:postgresql://h/db", "[public.orders]", "x:1", "jdbc:sqlite:t.db").replace("kafka:\n", "kafka:\n  partitions: 0\n"),
                "run", "-c", "{dir}/p.yaml"));
        c.add(withFile("run: an unset environment variable", 2, "Missing environment variable TIDEMARK_CORPUS_UNSET for configuration source\\.password",
                pipeline("jdbc:postgresql://h/db", "[public.orders]", "x:1", "jdbc:sqlite:t.db")
                        .replace("source:\n", "source:\n  password: ${TIDEMARK_CORPUS_UNSET}\n"), "run", "-c", "{dir}/p.yaml"));
        c.add(withFile("run: a bad password value is never echoed", 2, "Invalid value \\[hidden\\] for configuration source\\.password",
                pipeline("jdbc:postgresql://h/db", "[public.orders]", "x:1", "jdbc:sqlite:t.db")
                        .replace("source:\n", "source:\n  password: [" + CANARY + "]\n"), "run", "-c", "{dir}/p.yaml"));
        c.add(withFile("run: unknown source host says source and host, never the password", 3, "cannot connect to the source at no-such-host\\.invalid:5432",
                pipeline("jdbc:postgresql://no-such-host.invalid:5432/db?password=" + CANARY, "[public.orders]", "127.0.0.1:1",
                        "jdbc:sqlite:t.db").replace("source:\n", "source:\n  password: " + CANARY + "\n"), "run", "-c", "{dir}/p.yaml"));
        // kafka.properties secrets (issue 27): the JAAS password, the key-store, key and trust-store passwords
        c.add(withFile("run: a key store that cannot be read is one line naming it, no Kafka secret", 3,
                "cannot make a Kafka client for 127\\.0\\.0\\.1:1 from kafka\\.properties \\(security\\.protocol SASL_SSL, sasl\\.mechanism"
                        + " SCRAM-SHA-512\\): .*missing-(key|trust)\\.p12", kafkaSecured(MISSING_STORES), "run", "-c", "{dir}/p.yaml"));
        c.add(withFile("run: a JAAS line Kafka rejects is one line, its password not shown", 3,
                "cannot make a Kafka client for 127\\.0\\.0\\.1:1 .*JAAS", kafkaSecured("").replace(CANARY + "\";'", CANARY + "\"'"),
                "run", "-c", "{dir}/p.yaml"));
        c.add(withFile("status: a key store that cannot be read is said, no Kafka secret", 3, "cannot make a Kafka client for 127\\.0\\.0\\.1:1",
                kafkaSecured(MISSING_STORES), "status", "-c", "{dir}/p.yaml"));
        c.add(new Case("run: a table without primary key is refused and left unchanged", List.of("run", "-c", "{dir}/p.yaml"),
                Map.of("p.yaml", pipeline("{pg}", "[public.nopk]", "127.0.0.1:1", "jdbc:sqlite:t.db")
                        .replace("source:\n", "source:\n  password: " + CANARY + "\n")), false, 2,
                "table public\\.nopk has no primary key", List.of(),
                d -> {
                    assertThat(replicaIdentity("nopk")).as("nothing changed before the refusal").isEqualTo("d");
                    assertThat(d.resolve("t.db")).as("no target file created before the refusal").doesNotExist();
                    assertThat(d.resolve("state")).as("no state folder created before the refusal").doesNotExist();
                }));
        c.add(withFile("run: a missing source table", 2, "table public\\.nosuch does not exist",
                pipeline("{pg}", "[public.nosuch]", "127.0.0.1:1", "jdbc:sqlite:t.db"), "run", "-c", "{dir}/p.yaml"));
        c.add(withFile("run: Kafka unreachable fails within the time it states", 3, "Kafka at 127\\.0\\.0\\.1:1 did not answer within 30 s",
                pipeline("{pg}", "[public.orders]", "127.0.0.1:1", "jdbc:sqlite:t.db"), "run", "-c", "{dir}/p.yaml"));
        // ---- capture, sink
        c.add(fails("capture without --config", 2, "Missing required option.*--config", "capture"));
        c.add(withFile("capture: --resnapshot with --accept-gap", 2, "--resnapshot and --accept-gap exclude each other",
                pipeline("jdbc:postgresql://h/db", "[public.orders]", "x:1", "jdbc:sqlite:t.db"),
                "capture", "-c", "{dir}/p.yaml", "--resnapshot", "--accept-gap"));
        c.add(withFile("capture: tables as a string", 2, "source\\.tables.*expected a list",
                pipeline("jdbc:postgresql://h/db", "public.orders", "x:1", "jdbc:sqlite:t.db"), "capture", "-c", "{dir}/p.yaml"));
        c.add(withFile("sink: a bad --replay-from", 2, "--replay-from",
                pipeline("jdbc:postgresql://h/db", "[public.orders]", "x:1", "jdbc:sqlite:t.db"),
                "sink", "-c", "{dir}/p.yaml", "--replay-from", "2026-13-45T99:00:00Z"));
        c.add(new Case("sink: Kafka unreachable fails within the time it states, before the target is opened",
                List.of("sink", "-c", "{dir}/p.yaml"), Map.of("p.yaml", pipeline("{pg}", "[public.orders]", "127.0.0.1:1", "jdbc:sqlite:t.db")),
                false, 3, "Kafka at 127\\.0\\.0\\.1:1 did not answer within 30 s", List.of(),
                d -> assertThat(d.resolve("t.db")).as("no target file created before Kafka answered").doesNotExist()));
        c.add(fails("sink with a misspelt option", 2, "unknown option '--replay'", "sink", "-c", "x.yaml", "--replay", "earliest"));
        c.add(withFile("sink: a wrong target password says target and host, never the password", 3,
                "cannot open the target at 127\\.0\\.0\\.1:3306 .*Access denied",
                pipeline("jdbc:postgresql://h/db", "[public.orders]", "127.0.0.1:1", "jdbc:mariadb://127.0.0.1:3306/mysql")
                        .replace("target:\n", "target:\n  user: tidemark_corpus_nobody\n  password: " + CANARY + "\n"),
                "sink", "-c", "{dir}/p.yaml"));
        c.add(withFile("sink: YAML syntax error gives line and column", 2, "line 2, column \\d+", "name: a\n  source: : x\n",
                "sink", "-c", "{dir}/p.yaml"));
        // ---- status
        c.add(fails("status with a missing config file", 2, "cannot read file: .*nosuch\\.yaml", "status", "-c", "{dir}/nosuch.yaml"));
        c.add(withFile("status: tables as a string", 2, "source\\.tables.*expected a list",
                pipeline("jdbc:postgresql://h/db", "public.orders", "x:1", "jdbc:sqlite:t.db"), "status", "-c", "{dir}/p.yaml"));
        c.add(fails("status with a misspelt option", 2, "unknown option '--jsn'", "status", "-c", "x.yaml", "--jsn"));
        c.add(new Case("status before the first run creates nothing and says the lag is unknown", List.of("status", "-c", "{dir}/p.yaml"),
                Map.of("p.yaml", pipeline("{pg}", "[public.orders]", "127.0.0.1:1", "jdbc:sqlite:t.db")), false, 3, "lag.*unknown",
                List.of("total lag: 0"), d -> {
                    assertThat(d.resolve("t.db")).as("no target file created by status").doesNotExist();
                    assertThat(d.resolve("state")).as("no state folder created by status").doesNotExist();
                }));
        c.add(withFile("run: source.excludeColumns naming a table that is not captured", 2,
                "source\\.excludeColumns\\[0\\].*public\\.invoices is not in source\\.tables",
                pipeline("jdbc:postgresql://h/db", "[public.orders]", "x:1", "jdbc:sqlite:t.db")
                        .replace("  tables:", "  excludeColumns: [public.invoices.total]\n  tables:"), "run", "-c", "{dir}/p.yaml"));
        // ---- watermark
        c.add(fails("watermark without arguments", 2, "Missing --source JDBC_URL", "watermark"));
        c.add(new Case("watermark: a minimal config file with relative paths runs, paths follow the file",
                List.of("watermark", "-c", "{dir}/w.yaml", "--no-progress"),
                Map.of("w.yaml", "source: { url: 'jdbc:sqlite:src.db' }\ntarget: { url: 'jdbc:sqlite:replica.db' }\n"
                        + "tables:\n  - { table: items, cursor: modified }\n"), true, 0, "items: initial window.*3 rows", List.of(),
                d -> {
                    assertThat(d.resolve("replica.db")).as("the target next to the config file").exists();
                    assertThat(Path.of("replica.db").toAbsolutePath()).as("not in the current directory").doesNotExist();
                    assertThat(Path.of("src.db").toAbsolutePath()).as("no source created in the current directory").doesNotExist();
                }));
        c.add(new Case("watermark: defaults with only an overlap", List.of("watermark", "-c", "{dir}/w.yaml", "--no-progress"),
                Map.of("w.yaml", "source: { url: 'jdbc:sqlite:{dir}/src.db' }\ntarget: { url: 'jdbc:sqlite:{dir}/replica.db' }\n"
                        + "defaults: { overlap: 1d }\ntables:\n  - { table: items, cursor: modified }\n"), true, 0,
                "items: initial window.*3 rows", List.of(), d -> { }));
        c.add(new Case("watermark: a missing SQLite source is refused and not created",
                List.of("watermark", "--source", "jdbc:sqlite:{dir}/missing.db", "--target", "jdbc:sqlite:{dir}/t.db", "--table", "items",
                        "--cursor", "modified"), Map.of(), false, 2, "source .*missing\\.db does not exist", List.of(),
                d -> assertThat(d.resolve("missing.db")).doesNotExist()));
        c.add(fails("watermark: an Oracle source lists the supported ones", 2, "source.*jdbc:oracle.*supported.*jdbc:sqlite",
                "watermark", "--source", "jdbc:oracle:thin:@h:1521:x", "--target", "jdbc:sqlite:{dir}/t.db", "--table", "items",
                "--cursor", "modified"));
        c.add(fails("watermark: a MySQL source URL with a password is refused, masked", 2, "source.*jdbc:mysql.*supported",
                "watermark", "--source", "jdbc:mysql://127.0.0.1:3306/x?password=" + CANARY, "--target", "jdbc:sqlite:{dir}/t.db",
                "--table", "items", "--cursor", "modified"));
        c.add(new Case("watermark: an Oracle target lists the supported ones", List.of("watermark", "--source", "jdbc:sqlite:{dir}/src.db",
                "--target", "jdbc:oracle:thin:@h:1521:x", "--table", "items", "--cursor", "modified"), Map.of(), true, 2,
                "target.*jdbc:oracle.*supported.*jdbc:sqlite", List.of(), d -> { }));
        c.add(new Case("watermark: tables as a string says expected a list", List.of("watermark", "-c", "{dir}/w.yaml"),
                Map.of("w.yaml", "source: { url: 'jdbc:sqlite:src.db' }\ntarget: { url: 'jdbc:sqlite:replica.db' }\ntables: items\n"),
                true, 2, "configuration tables.*expected a list", List.of(), d -> { }));
        c.add(new Case("watermark: YAML syntax error gives line and column", List.of("watermark", "-c", "{dir}/w.yaml"),
                Map.of("w.yaml", "source: { url: 'jdbc:sqlite:src.db' }\ntables:\n  - { table: items, cursor: modified\n"),
                false, 2, "line \\d+, column \\d+", List.of(), d -> { }));
        c.add(new Case("watermark: a misspelt cursor column", List.of("watermark", "--source", "jdbc:sqlite:{dir}/src.db", "--target",
                "jdbc:sqlite:{dir}/t.db", "--table", "items", "--cursor", "modifed"), Map.of(), true, 2, "modifed", List.of(),
                d -> assertThat(d.resolve("t.db")).as("no target file created for a refused cursor").doesNotExist()));
        c.add(new Case("watermark: a TEXT cursor that holds no date-times is refused naming what it holds", List.of("watermark", "--source",
                "jdbc:sqlite:{dir}/src.db", "--target", "jdbc:sqlite:{dir}/t.db", "--table", "items", "--cursor", "name",
                "--cursor-kind", "timestamp"), Map.of(), true, 2, "cursor column name is TEXT whose values are not ISO-8601 date-times.*not ISO-8601 \\(3 rows, e\\.g\\. keys 1, 2, 3\\)", List.of(),
                d -> assertThat(d.resolve("t.db")).as("no target file created for a refused cursor").doesNotExist()));
        c.add(fails("watermark: a bad --overlap", 2, "Invalid value 1x for --overlap", "watermark", "--source", "jdbc:sqlite:a.db",
                "--target", "jdbc:sqlite:b.db", "--table", "items", "--cursor", "modified", "--overlap", "1x"));
        c.add(fails("watermark: --chunk-size 0", 2, "Invalid value 0 for --chunk-size", "watermark", "--source", "jdbc:sqlite:a.db",
                "--target", "jdbc:sqlite:b.db", "--table", "items", "--cursor", "modified", "--chunk-size", "0"));
        c.add(fails("watermark: --chunk-size not a number", 2, "--chunk-size.*'ten'", "watermark", "--chunk-size", "ten"));
        c.add(fails("watermark: --kafka without a control database", 2, "Missing --control JDBC_URL", "watermark", "--source",
                "jdbc:sqlite:a.db", "--kafka", "x:1", "--table", "items", "--cursor", "modified"));
        c.add(new Case("watermark: a wrong control password says control and host, never the password", List.of("watermark", "--source",
                "jdbc:sqlite:{dir}/src.db", "--kafka", "127.0.0.1:1", "--control",
                "jdbc:mariadb://127.0.0.1:3306/mysql?user=tidemark_corpus_nobody&password=" + CANARY, "--table", "items", "--cursor",
                "modified", "--no-progress"), Map.of(), true, 3, "cannot connect to the control at 127\\.0\\.0\\.1:3306 .*Access denied",
                List.of(), d -> { }));
        c.add(new Case("watermark: --window-start without --window-end", List.of("watermark", "--source", "jdbc:sqlite:{dir}/src.db",
                "--target", "jdbc:sqlite:{dir}/t.db", "--table", "items", "--cursor", "modified", "--window-start", "2013-01-01"),
                Map.of(), true, 2, "--window-start and --window-end go together", List.of(), d -> { }));
        c.add(fails("watermark: --config with --source", 2, "--source cannot be combined with --config", "watermark", "-c", "x.yaml",
                "--source", "jdbc:sqlite:a.db"));
        // ---- reconcile
        c.add(fails("reconcile without arguments", 2, "Missing --source JDBC_URL", "reconcile"));
        c.add(fails("reconcile: --apply without --repair", 2, "--apply goes with --repair", "reconcile", "--source", "jdbc:sqlite:a.db",
                "--target", "jdbc:sqlite:b.db", "--table", "t", "--apply"));
        c.add(fails("reconcile: a bad --settle", 2, "Invalid value 5x for --settle", "reconcile", "--settle", "5x"));
        c.add(fails("reconcile: --max-delete-share above 100%", 2, "--max-delete-share", "reconcile", "--source", "jdbc:sqlite:a.db",
                "--target", "jdbc:sqlite:b.db", "--table", "t", "--max-delete-share", "150%"));
        c.add(new Case("reconcile: a missing SQLite source is refused and not created", List.of("reconcile", "--source",
                "jdbc:sqlite:{dir}/missing.db", "--target", "jdbc:sqlite:{dir}/t.db", "--table", "items", "--settle", "0s"), Map.of(), false,
                2, "source .*missing\\.db does not exist", List.of(), d -> assertThat(d.resolve("missing.db")).doesNotExist()));
        c.add(fails("reconcile: an Oracle source without its driver lists the supported ones", 2, "source.*jdbc:oracle.*supported",
                "reconcile", "--source", "jdbc:oracle:thin:@h:1521:x", "--target", "jdbc:sqlite:{dir}/t.db", "--table", "t"));
        c.add(new Case("reconcile: a wrong target password says target and host, never the password", List.of("reconcile", "--source",
                "jdbc:sqlite:{dir}/src.db", "--target", "jdbc:mariadb://127.0.0.1:3306/mysql?user=tidemark_corpus_nobody&password=" + CANARY,
                "--table", "items", "--settle", "0s"), Map.of(), true, 3, "target.*127\\.0\\.0\\.1.*(Access denied|password)", List.of(),
                d -> { }));
        c.add(new Case("reconcile: an unknown source host says source and host", List.of("reconcile",
                "--source", "jdbc:postgresql://no-such-host.invalid:5432/x?password=" + CANARY, "--target", "jdbc:sqlite:{dir}/src.db",
                "--table", "public.items", "--settle", "0s"), Map.of(), true, 3,
                "cannot connect to the source at no-such-host\\.invalid:5432 .*unknown host", List.of(), d -> { }));
        c.add(withFile("reconcile: --config with --source", 2, "--source cannot be combined with --config",
                pipeline("jdbc:postgresql://h/db", "[public.orders]", "x:1", "jdbc:sqlite:t.db"), "reconcile", "-c", "{dir}/p.yaml",
                "--source", "jdbc:sqlite:a.db"));
        c.add(withFile("reconcile: --config with tables as a string", 2, "source\\.tables.*expected a list",
                pipeline("jdbc:postgresql://h/db", "public.orders", "x:1", "jdbc:sqlite:t.db"), "reconcile", "-c", "{dir}/p.yaml"));
        c.add(new Case("reconcile --config: a relative SQLite target follows the config file", List.of("reconcile", "-c", "{dir}/p.yaml",
                "--table", "public.items", "--settle", "0s", "--no-progress"),
                Map.of("p.yaml", pipeline("{pg}", "[public.items]", "x:1", "jdbc:sqlite:src.db")), true, 0, "EQUAL", List.of(),
                d -> assertThat(Path.of("src.db").toAbsolutePath()).as("nothing created in the current directory").doesNotExist()));
        // ---- compare
        c.add(fails("compare: an unknown scenario", 2, "unknown scenario 'nosuch' \\(expected invoices or random\\)", "compare",
                "--scenario", "nosuch"));
        c.add(fails("compare: a seed that is not a number", 2, "--seed.*'abc'", "compare", "--seed", "abc"));
        return c.stream();
    }

    // a case that hangs (a command that waits silently) fails here instead of holding the build
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachWrongStepGetsItsExitCodeAndOneClearLine(Case c) throws Exception {
        for (Map.Entry<String, String> f : c.files().entrySet()) {
            Files.writeString(dir.resolve(f.getKey()), expand(f.getValue()));
        }
        if (c.sqliteSource()) {
            try (Connection con = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("src.db")); Statement s = con.createStatement()) {
                s.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, modified DATETIME, name TEXT)");
                s.execute("INSERT INTO items VALUES (1, '2024-05-01 10:00:00', 'a'), (2, '2024-05-02 10:00:00', 'b'), "
                        + "(3, '2024-05-03 10:00:00', 'c')");
            }
        }
        String[] argv = c.argv().stream().map(this::expand).toArray(String[]::new);
        CliRun r = CliRun.run(argv);
        String all = r.out() + r.err();
        assertThat(r.exit()).as("exit code of %s; output:%n%s", String.join(" ", argv), all).isEqualTo(c.exit());
        assertThat(Pattern.compile(c.message(), Pattern.MULTILINE).matcher(all).find())
                .as("a line matching /%s/ in:%n%s", c.message(), all).isTrue();
        List<String> forbidden = new ArrayList<>(ALWAYS_FORBIDDEN);
        forbidden.addAll(c.forbidden());
        for (String f : forbidden) {
            assertThat(Pattern.compile(f).matcher(all).find()).as("/%s/ must not appear in:%n%s", f, all).isFalse();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.filter(Files::isRegularFile).filter(p -> !c.files().containsKey(dir.relativize(p).toString())).toList()) {
                assertThat(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1)).as("secret in %s", p).doesNotContain(CANARY);
            }
        }
        c.after().verify(dir);
    }

    private String expand(String s) {
        return s.replace("{dir}", dir.toString()).replace("{pg}", pg);
    }

    private static Case fails(String name, int exit, String message, String... argv) {
        return new Case(name, List.of(argv), Map.of(), false, exit, message, List.of(), d -> { });
    }

    private static Case ok(String name, String message, String... argv) {
        return new Case(name, List.of(argv), Map.of(), false, 0, message, List.of(), d -> { });
    }

    private static Case withFile(String name, int exit, String message, String file, String... argv) {
        return new Case(name, List.of(argv), Map.of("p.yaml", file), false, exit, message, List.of(), d -> { });
    }

    /** A pipeline file; {@code tables} as written after {@code tables:} (a list, or a string on purpose). */
    private static String pipeline(String sourceUrl, String tables, String kafka, String targetUrl) {
        return "name: corpus\nsource:\n  url: '" + sourceUrl + "'\n  tables: " + tables + "\nkafka:\n  bootstrapServers: " + kafka
                + "\ntarget:\n  url: '" + targetUrl + "'\nstateDir: state\n";
    }

    /**
     * A pipeline of {@code public.orders} of {@code {pg}} over SASL_SSL to 127.0.0.1:1 whose {@code kafka.properties}
     * hold the canary as the JAAS password and the key-store, key and trust-store passwords, plus {@code more}
     * (property lines, each indented by four spaces).
     */
    private static String kafkaSecured(String more) {
        return pipeline("{pg}", "[public.orders]", "127.0.0.1:1", "jdbc:sqlite:t.db").replace("\ntarget:", "\n  properties:\n"
                + "    security.protocol: SASL_SSL\n    sasl.mechanism: SCRAM-SHA-512\n"
                + "    sasl.jaas.config: 'org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"" + CANARY + "\";'\n"
                + "    ssl.keystore.password: " + CANARY + "\n    ssl.key.password: " + CANARY + "\n    ssl.truststore.password: " + CANARY + "\n"
                + more + "target:");
    }

    private static String replicaIdentity(String table) throws Exception {
        try (Connection c = DriverManager.getConnection(pg, TestInfrastructure.postgres().user(), TestInfrastructure.postgres().password());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT relreplident FROM pg_class WHERE oid = 'public." + table + "'::regclass")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
