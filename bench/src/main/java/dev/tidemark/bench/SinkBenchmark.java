package dev.tidemark.bench;

import dev.tidemark.testkit.SyntheticChangeStream;
import dev.tidemark.devenv.LocalKafka;
import dev.tidemark.event.TableId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The sink benchmark: starts a single-node Kafka ({@link LocalKafka}), pre-loads one topic with a seeded
 * {@link SyntheticChangeStream} (≈70% inserts, 20% updates, 10% deletes + tombstones, 6 columns, random keys) encoded
 * as Debezium envelopes, then lets each contender consume that same topic from the beginning in its own child JVM and
 * prints events/s, the ratio to its baseline, peak heap and peak RSS side by side. See {@code docs/benchmarks.md}.
 *
 * <pre>
 * bench/sink.sh [--events N] [--batch N] [--contenders a,b,…] [--rounds N] [--seed N] [--pg jdbc:postgresql://127.0.0.1:5432/]
 *               [--pg-user postgres] [--jvm "-Xms256m -Xmx1g"] [--consumer k=v,…] [--workdir DIR]
 * </pre>
 */
public final class SinkBenchmark {
    static final TableId TABLE = new TableId("public", "items");
    static final String TOPIC_PREFIX = "bench";

    private SinkBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        BenchArgs.parentOrChild(options(args), ContenderRun::run, o -> new Parent(o).run());
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = BenchArgs.defaults("""
                events 1000000
                batch 2000
                seed 42
                partitions 3
                pg jdbc:postgresql://127.0.0.1:5432/
                pg-user postgres
                jvm -Xms256m -Xmx1g
                contenders %s
                rounds 1
                consumer
                """.formatted(String.join(",", Contender.ids())));
        return BenchArgs.options(args, o,
                "usage: bench/sink.sh [--events N] [--batch N] [--contenders " + String.join(",", Contender.ids())
                        + "] [--rounds N] [--seed N] [--partitions N] [--pg URL] [--pg-user USER] [--jvm OPTIONS] [--consumer k=v,…] [--workdir DIR]",
                "bench");
    }

    /** The orchestrating JVM: Kafka, the pre-load, one child JVM per contender, the table. */
    private static final class Parent {
        private final Map<String, String> o;
        private final long events;
        private final int batch;
        private final int partitions;
        private final long seed;
        private final int rounds;
        private final List<Map<String, String>> results = new ArrayList<>();

        Parent(Map<String, String> o) {
            this.o = o;
            this.events = Long.parseLong(o.get("events").replace("_", ""));
            this.batch = Integer.parseInt(o.get("batch"));
            this.partitions = Integer.parseInt(o.get("partitions"));
            this.seed = Long.parseLong(o.get("seed"));
            this.rounds = Integer.parseInt(o.get("rounds"));
        }

        int run() throws Exception {
            List<Contender> contenders = new ArrayList<>();
            for (String id : o.get("contenders").split(",")) {
                contenders.add(Contender.byId(id.trim()).orElseThrow(() -> new IllegalArgumentException(
                        "unknown contender " + id + " (known: " + Contender.ids() + ")")));
            }
            System.out.println("Tidemark sink benchmark");
            System.out.println("  machine: " + Runtime.getRuntime().availableProcessors() + " cores, " + Machine.memTotal() + ", "
                    + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", Java " + System.getProperty("java.version"));
            System.out.println("  workload: " + String.format(Locale.ROOT, "%,d", events) + " records, seed " + seed + ", "
                    + partitions + " partitions, batch (max.poll.records) " + batch + ", contender JVMs: " + o.get("jvm")
                    + (rounds > 1 ? ", " + rounds + " rounds (best of them reported)" : "")
                    + (o.get("consumer").isEmpty() ? "" : ", extra consumer properties for every contender: " + o.get("consumer")));
            Path work = o.containsKey("workdir") ? Files.createDirectories(Path.of(o.get("workdir")))
                    : Files.createTempDirectory("tidemark-bench-");
            try (LocalKafka kafka = LocalKafka.start(work.resolve("kafka"))) {
                System.out.printf(Locale.ROOT, "  Kafka %s started in %.1f s%n", kafka.bootstrapServers(), kafka.startupMillis() / 1000.0);
                String topic = TOPIC_PREFIX + "." + TABLE.schema() + "." + TABLE.table();
                long[] expected = SinkTopicPreload.load(kafka.bootstrapServers(), topic, events, partitions, seed);
                for (int round = 1; round <= rounds; round++) {
                    if (rounds > 1) {
                        System.out.println("  round " + round + " of " + rounds);
                    }
                    for (Contender c : contenders) {
                        Map<String, String> r = runContender(c, kafka.bootstrapServers(), topic, work, expected);
                        r.put("round", Integer.toString(round));
                        results.add(r);
                    }
                }
            } finally {
                deleteRecursively(work);
            }
            new SinkResultsTable(events, rounds, results).print();
            return 0;
        }

        private Map<String, String> runContender(Contender c, String bootstrap, String topic, Path work, long[] expected) throws Exception {
            System.out.println("  " + c.id + ": " + c.description + " [load average " + Machine.loadAverage() + "]");
            String url = null;
            String database = null;
            String pg = o.get("pg").endsWith("/") ? o.get("pg") : o.get("pg") + "/";
            String pgUser = o.get("pg-user");
            switch (c.target) {
                case SQLITE -> url = "jdbc:sqlite:" + work.resolve(c.id + ".db");
                case POSTGRES -> {
                    database = "tidemark_bench_" + ProcessHandle.current().pid() + "_" + c.name().toLowerCase(Locale.ROOT);
                    try {
                        adminSql(pg, pgUser, "CREATE DATABASE " + database);
                    } catch (SQLException e) {
                        return skipped(c, "n/a: PostgreSQL at " + pg + " not reachable as " + pgUser + ": " + e.getMessage());
                    }
                    url = pg + database;
                }
                case NONE -> url = "";
            }
            try {
                return launch(c, bootstrap, topic, url, c.target == Contender.Target.POSTGRES ? pgUser : "", expected);
            } finally {
                if (database != null) {
                    adminSql(pg, pgUser, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
                }
                if (c.target == Contender.Target.SQLITE) {
                    for (String suffix : List.of("", "-wal", "-shm")) {
                        Files.deleteIfExists(work.resolve(c.id + ".db" + suffix));
                    }
                }
            }
        }

        /** The contender's child JVM: bench's class path, or for Debezium's JDBC sink its own ({@link DebeziumClassPath}). */
        private Map<String, String> launch(Contender c, String bootstrap, String topic, String url, String user, long[] expected)
                throws Exception {
            String classPath = System.getProperty("java.class.path");
            Class<?> main = SinkBenchmark.class;
            if (c.ownClassPath()) {
                Path benchCode = Path.of(SinkBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                if (!DebeziumClassPath.missing(benchCode).isEmpty()) {
                    return skipped(c, "n/a: " + DebeziumClassPath.missing(benchCode));
                }
                classPath = DebeziumClassPath.forChild(benchCode);
                main = DebeziumJdbcSinkRun.class;
            }
            ChildJvm.Outcome out = ChildJvm.run(ChildJvm.command(o.get("jvm"), classPath, main,
                    ChildOptions.arguments(c, bootstrap, topic, batch, url, user, expected, o.get("consumer"))));
            if (out.results().isEmpty() || out.exit() != 0) {
                return skipped(c, out.failure());
            }
            Map<String, String> result = out.results().get(0);
            result.put("load", Machine.loadAverage());
            System.out.printf(Locale.ROOT, "    → %,.0f events/s over %s s (wall %s s), peak heap %s, peak RSS %s; target check: %s; load average after: %s%n",
                    Double.parseDouble(result.get("eps")), result.get("seconds"), result.get("wall"),
                    SinkResultsTable.mib(result.get("heap")), SinkResultsTable.mib(result.get("rss")), result.get("check"), result.get("load"));
            return result;
        }

        private static Map<String, String> skipped(Contender c, String why) {
            return ChildJvm.skipped(c.id, why);
        }

        private static void adminSql(String server, String user, String sql) throws SQLException {
            Properties p = new Properties();
            p.setProperty("user", user);
            p.setProperty("connectTimeout", "5");
            try (Connection c = DriverManager.getConnection(server + "postgres", p); Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }

        private static void deleteRecursively(Path dir) throws IOException {
            if (!Files.exists(dir)) {
                return;
            }
            try (var paths = Files.walk(dir)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
