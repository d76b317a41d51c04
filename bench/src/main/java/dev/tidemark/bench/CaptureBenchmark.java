package dev.tidemark.bench;

import dev.tidemark.devenv.LocalKafka;
import dev.tidemark.devenv.LocalPostgres;
import dev.tidemark.devenv.ServerFolders;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The capture benchmark ({@code bench/capture.sh}, issue 13): one change backlog in a throwaway PostgreSQL, drained
 * by every contender from its own replication slot, each slot created before the backlog was written, so every
 * contender decodes exactly the same WAL. Variants: {@code batch} (1,000-row transactions) and {@code single} (one row
 * per transaction). The JVM contenders run in their own child JVM each (round 1 cold, later rounds warm in the same
 * JVM); {@code pg_recvlogical} runs once per round as a process; {@code tidemark-run-*} run capture and sink end to
 * end. Prints one Markdown table per variant.
 *
 * <pre>
 * bench/capture.sh [--changes 500000] [--single-changes 100000] [--variants batch,single] [--rounds 2]
 *                  [--contenders pg_recvlogical,debezium-noop,debezium-kafka,tidemark-capture] [--partitions 3]
 *                  [--jvm "OPTS"] [--debezium-schemas false] [--debezium k=v,…] [--workdir DIR]
 * </pre>
 */
public final class CaptureBenchmark {
    static final String PUBLICATION = "bench_pub";
    static final String DATABASE = "postgres";

    private CaptureBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        BenchArgs.parentOrChild(options(args), CaptureContenderRun::run, o -> new Parent(o).run());
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = BenchArgs.defaults("""
                changes 500000
                single-changes 100000
                variants batch,single
                rounds 2
                contenders %s
                partitions 3
                jvm
                debezium-schemas false
                debezium
                tidemark-kafka
                target-pg jdbc:postgresql://127.0.0.1:5432/
                target-pg-user postgres
                """.formatted(String.join(",", CaptureContender.ids())));
        return BenchArgs.options(args, o,
                "usage: bench/capture.sh [--changes N] [--single-changes N] [--variants batch,single] [--rounds N] [--contenders "
                        + String.join(",", CaptureContender.ids()) + "] [--partitions N] [--jvm OPTIONS] [--debezium-schemas true|false]"
                        + " [--debezium k=v,…] [--tidemark-kafka k=v,…] [--target-pg URL] [--target-pg-user USER] [--workdir DIR]",
                "capture bench");
    }

    /** The orchestrating JVM: PostgreSQL, Kafka, the backlog, the contenders, the tables. */
    private static final class Parent {
        private final Map<String, String> o;
        private final int rounds;
        private final List<CaptureContender> contenders = new ArrayList<>();

        Parent(Map<String, String> o) {
            this.o = o;
            this.rounds = Integer.parseInt(o.get("rounds"));
            for (String id : o.get("contenders").split(",")) {
                contenders.add(CaptureContender.byId(id.trim()));
            }
        }

        int run() throws Exception {
            Path work = o.containsKey("workdir") ? Files.createDirectories(Path.of(o.get("workdir")))
                    : ServerFolders.newTemporary(Path.of("/tmp"), "tidemark-capture-bench-");
            work.toFile().setExecutable(true, false);
            System.out.println("Tidemark capture benchmark");
            System.out.println("  machine: " + Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                    + System.getProperty("os.version") + ", Java " + System.getProperty("java.version") + "; contender JVMs: "
                    + (o.get("jvm").isBlank() ? "JVM defaults" : o.get("jvm")) + "; Debezium JSON schemas " + o.get("debezium-schemas")
                    + (o.get("debezium").isEmpty() ? "" : "; extra Debezium properties " + o.get("debezium"))
                    + (o.get("tidemark-kafka").isEmpty() ? "" : "; extra tidemark Kafka properties " + o.get("tidemark-kafka")));
            try (LocalPostgres pg = LocalPostgres.start(work.resolve("pg"), false);
                 LocalKafka kafka = LocalKafka.start(work.resolve("kafka"))) {
                System.out.printf(Locale.ROOT, "  PostgreSQL %s (fsync off) on %d, Kafka %s%n", pg.version(), pg.port(), kafka.bootstrapServers());
                for (String variant : o.get("variants").split(",")) {
                    CaptureBacklog backlog = switch (variant.trim()) {
                        case "batch" -> CaptureBacklog.of("batch", Long.parseLong(o.get("changes")), 1000);
                        case "single" -> CaptureBacklog.of("single", Long.parseLong(o.get("single-changes")), 1);
                        default -> throw new IllegalArgumentException("unknown variant " + variant + " (batch, single)");
                    };
                    List<Map<String, String>> results = runVariant(pg, kafka, work, backlog);
                    System.out.println();
                    System.out.print(CaptureResultsTable.markdown(backlog, results, rounds));
                    System.out.println();
                }
            }
            return 0;
        }

        private List<Map<String, String>> runVariant(LocalPostgres pg, LocalKafka kafka, Path work, CaptureBacklog backlog) throws Exception {
            CaptureSlots slots;
            String endLsn;
            try (Connection c = connect(pg)) {
                CaptureBacklog.createSchema(c, PUBLICATION);
                String startLsn = scalar(c, "SELECT pg_current_wal_lsn()::text");
                slots = CaptureSlots.create(c, backlog.name(), contenders, rounds);
                long t0 = System.nanoTime();
                backlog.load(c);
                double loadSeconds = (System.nanoTime() - t0) / 1e9;
                endLsn = scalar(c, "SELECT pg_current_wal_lsn()::text");
                String wal = scalar(c, "SELECT pg_size_pretty(pg_wal_lsn_diff('" + endLsn + "', '" + startLsn + "'))");
                System.out.printf(Locale.ROOT, "%n  backlog %s: %,d changes in %,d transactions of %,d row(s) (%,d INSERT, %,d UPDATE, %,d DELETE rows), "
                                + "%s of WAL, written in %.1f s; end LSN %s%n", backlog.name(), backlog.changes(), backlog.transactions(),
                        backlog.txnRows(), backlog.inserts(), backlog.updates(), backlog.deletes(), wal, loadSeconds, endLsn);
            }
            List<Map<String, String>> results = drain(pg, kafka, work, backlog, slots, endLsn);
            try (Connection c = connect(pg)) {
                slots.drop(c);
            }
            return results;
        }

        /** Every contender drains its slots in turn; prints each round with the walsender CPU its slot cost. */
        private List<Map<String, String>> drain(LocalPostgres pg, LocalKafka kafka, Path work, CaptureBacklog backlog, CaptureSlots slots,
                                                String endLsn) throws Exception {
            List<Map<String, String>> results = new ArrayList<>();
            try (WalsenderCpu walsenders = new WalsenderCpu(pg.jdbcUrl(DATABASE))) {
                for (CaptureContender ct : contenders) {
                    System.out.println("  " + ct.id + ": " + ct.label);
                    if (ct == CaptureContender.PG_RECVLOGICAL) {
                        int r = 0;
                        for (String slot : slots.of(ct)) {
                            results.add(PgRecvLogical.drain(pg, slot, PUBLICATION, endLsn, backlog.changes(), ++r));
                        }
                    } else {
                        createTopics(kafka.bootstrapServers(), backlog.name(), ct);
                        results.addAll(child(kafka, pg, work, backlog, ct, slots.of(ct)));
                    }
                    for (Map<String, String> m : results) {
                        if (m.get("contender").equals(ct.id) && m.containsKey("slot")) {
                            m.put("walsender", String.format(Locale.ROOT, "%.3f", walsenders.seconds(m.get("slot"))));
                            System.out.printf(Locale.ROOT, "    round %s: %,.0f changes/s (%s s; wall %s s), CPU %s s, walsender CPU %s s, peak heap %s, peak RSS %s%n",
                                    m.get("round"), CaptureResultsTable.rate(m), m.get("seconds"), m.get("wall"), m.get("cpu"), m.get("walsender"),
                                    SinkResultsTable.mib(m.getOrDefault("heap", "-1")), SinkResultsTable.mib(m.getOrDefault("rss", "-1")));
                        }
                    }
                }
            }
            return results;
        }

        private List<Map<String, String>> child(LocalKafka kafka, LocalPostgres pg, Path work, CaptureBacklog backlog, CaptureContender ct,
                                                List<String> slots) throws Exception {
            ChildJvm.Outcome out = ChildJvm.run(ChildJvm.command(o.get("jvm"), System.getProperty("java.class.path"), CaptureBenchmark.class,
                    List.of("--child", ct.id, "--slots", String.join(",", slots), "--variant", backlog.name(), "--changes", Long.toString(backlog.changes()),
                    "--deletes", Long.toString(backlog.deletes()),
                    "--inserts", Long.toString(backlog.inserts()), "--updates", Long.toString(backlog.updates()), "--pg-host", pg.host(), "--pg-port", Integer.toString(pg.port()),
                    "--pg-db", DATABASE, "--publication", PUBLICATION, "--bootstrap", kafka.bootstrapServers(), "--partitions", o.get("partitions"),
                    "--debezium-schemas", o.get("debezium-schemas"), "--debezium", o.get("debezium"), "--tidemark-kafka", o.get("tidemark-kafka"),
                    "--target-pg", o.get("target-pg"), "--target-pg-user", o.get("target-pg-user"),
                    "--workdir", work.resolve("state-" + backlog.name()).toString())));
            List<Map<String, String>> results = new ArrayList<>(out.results());
            if (out.exit() != 0 || results.size() != slots.size()) {
                results.add(ChildJvm.skipped(ct.id, out.failure()));
            }
            return results;
        }

        private void createTopics(String bootstrap, String variant, CaptureContender ct) throws Exception {
            if (ct != CaptureContender.DEBEZIUM_KAFKA) {
                return; // tidemark creates its own topics (CaptureTopics); the no-op engine sends nothing
            }
            Properties p = new Properties();
            p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            try (Admin admin = Admin.create(p)) {
                List<NewTopic> topics = new ArrayList<>();
                for (int r = 1; r <= rounds; r++) {
                    topics.add(new NewTopic(variant + "-" + ct.id + "-" + r + ".public." + CaptureBacklog.TABLE, Integer.parseInt(o.get("partitions")), (short) 1));
                }
                admin.createTopics(topics).all().get();
            }
        }

        private static Connection connect(LocalPostgres pg) throws SQLException {
            Properties p = new Properties();
            p.setProperty("user", pg.user());
            return DriverManager.getConnection(pg.jdbcUrl(DATABASE), p);
        }

        private static String scalar(Connection c, String sql) throws SQLException {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                return rs.getString(1);
            }
        }
    }
}
