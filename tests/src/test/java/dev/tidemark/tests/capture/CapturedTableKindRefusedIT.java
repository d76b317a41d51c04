package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables capture cannot take as listed are refused at start, before anything is created: an UNLOGGED table (its
 * changes are not in the WAL) and a partition listed beside its partitioned root (the root carries its rows). One
 * line naming the table and what to do, exit 2, no slot; following the line, capture starts and delivers.
 */
class CapturedTableKindRefusedIT {
    static final TableId SCRATCH = new TableId("public", "scratch");
    static final TableId ORDERS = new TableId("public", "orders");
    static final TableId ORDERS_EU = new TableId("public", "orders_eu");

    @TempDir
    Path dir;

    @Test
    void anUnloggedTableIsRefusedAndSetLoggedAsTheLineSaysItIsCaptured() throws Exception {
        try (CaptureFixture f = new CaptureFixture("unlogged", dir, List.of(SCRATCH))) {
            f.sql("CREATE UNLOGGED TABLE public.scratch (id int PRIMARY KEY, note text)", "INSERT INTO scratch VALUES (1, 'a')");
            String line = refusedLine(f);
            assertThat(line).isEqualTo("tidemark: table public.scratch is UNLOGGED, so its changes are not in the WAL and capture "
                    + "would never see one: run ALTER TABLE \"public\".\"scratch\" SET LOGGED or remove public.scratch from source.tables");

            f.sql(between(line, "run ", " or remove"));
            Sidecar sidecar = f.start(true, true);
            f.sql("INSERT INTO scratch VALUES (2, 'b')", "UPDATE scratch SET note = 'c' WHERE id = 1");
            f.awaitTargetEqual(sidecar, "id");
        }
    }

    @Test
    void aPartitionListedBesideItsRootIsRefusedAndWithoutItTheRootCarriesItsRows() throws Exception {
        try (CaptureFixture f = new CaptureFixture("beside_root", dir, List.of(ORDERS, ORDERS_EU))) {
            f.sql("CREATE TABLE public.orders (id int, region text, PRIMARY KEY (id, region)) PARTITION BY LIST (region)",
                    "CREATE TABLE public.orders_eu PARTITION OF public.orders FOR VALUES IN ('eu')",
                    "CREATE TABLE public.orders_us PARTITION OF public.orders FOR VALUES IN ('us')",
                    "INSERT INTO orders VALUES (1, 'eu'), (2, 'us')");
            String line = refusedLine(f);
            assertThat(line).isEqualTo("tidemark: source.tables lists public.orders_eu beside partitioned table public.orders, "
                    + "which holds it: capture takes public.orders as its root with every partition (one topic, public.orders's name), "
                    + "so remove public.orders_eu from source.tables");
        }
        try (CaptureFixture f = new CaptureFixture("beside_root_removed", dir.resolve("again"), List.of(ORDERS))) {
            f.sql("CREATE TABLE public.orders (id int, region text, PRIMARY KEY (id, region)) PARTITION BY LIST (region)",
                    "CREATE TABLE public.orders_eu PARTITION OF public.orders FOR VALUES IN ('eu')",
                    "CREATE TABLE public.orders_us PARTITION OF public.orders FOR VALUES IN ('us')",
                    "INSERT INTO orders VALUES (1, 'eu'), (2, 'us')");
            Sidecar sidecar = f.start(true, true);
            f.sql("INSERT INTO orders VALUES (3, 'eu')", "DELETE FROM orders WHERE id = 2");
            f.awaitTargetEqual(sidecar, "id", "region");
        }
    }

    @Test
    void aPublicationThatPublishesPartitionsUnderTheirOwnNamesIsRefusedAndTheAlterItNamesFixesIt() throws Exception {
        try (CaptureFixture f = new CaptureFixture("pub_via_root", dir, List.of(ORDERS))) {
            f.sql("CREATE TABLE public.orders (id int, region text, PRIMARY KEY (id, region)) PARTITION BY LIST (region)",
                    "CREATE TABLE public.orders_eu PARTITION OF public.orders FOR VALUES IN ('eu')",
                    "CREATE TABLE public.orders_us PARTITION OF public.orders FOR VALUES IN ('us')",
                    "INSERT INTO orders VALUES (1, 'eu'), (2, 'us')",
                    "CREATE PUBLICATION pub_" + f.name + " FOR TABLE public.orders"); // PostgreSQL's default: via the partitions
            Path yaml = f.writeYaml();
            Path log = f.dir.resolve("run.log");
            int exit = f.runToEnd(log, "run", "--config", yaml.toString());
            assertThat(exit).as(CaptureFixture.tail(log)).isEqualTo(3);
            assertThat(CaptureFixture.stackTraceLines(log)).as(CaptureFixture.tail(log)).isEmpty();
            assertThat(f.slotExists()).as("no slot created").isFalse();
            List<String> lines = CaptureFixture.errorLines(log);
            assertThat(lines).as(CaptureFixture.tail(log)).containsExactly("tidemark: publication \"pub_" + f.name + "\" publishes "
                    + "the partitions of public.orders under their own names (publish_via_partition_root = false), so capture would "
                    + "miss every change to them: run ALTER PUBLICATION \"pub_" + f.name + "\" SET (publish_via_partition_root = true), "
                    + "then start again with --resnapshot (changes made to them before were not captured)");

            String line = lines.get(0);
            f.sql(between(line, "run ", ", then start again"));
            Path again = f.dir.resolve("run-again.log");
            Process run = f.spawn(again, "run", "--config", yaml.toString(), "--resnapshot");
            f.sql("INSERT INTO orders VALUES (3, 'us')", "UPDATE orders SET region = 'us' WHERE id = 1");
            org.awaitility.Awaitility.await("target equal to source").atMost(java.time.Duration.ofSeconds(90))
                    .pollInterval(java.time.Duration.ofMillis(250)).failFast("tidemark run exited: " + again, () -> !run.isAlive())
                    .until(() -> f.targetEqualsSource("id", "region"));
        }
    }

    /** Runs {@code tidemark run}, expects exit 2 with one error line and no stack trace, no slot; returns the line. */
    private String refusedLine(CaptureFixture f) throws Exception {
        Path yaml = f.writeYaml();
        Path log = f.dir.resolve("run.log");
        int exit = f.runToEnd(log, "run", "--config", yaml.toString());
        assertThat(exit).as(CaptureFixture.tail(log)).isEqualTo(2);
        assertThat(CaptureFixture.stackTraceLines(log)).as(CaptureFixture.tail(log)).isEmpty();
        assertThat(f.slotExists()).as("no slot created").isFalse();
        List<String> lines = CaptureFixture.errorLines(log);
        assertThat(lines).as(CaptureFixture.tail(log)).hasSize(1);
        return lines.get(0);
    }

    private static String between(String line, String from, String to) {
        int start = line.indexOf(from) + from.length();
        return line.substring(start, line.indexOf(to, start));
    }
}
