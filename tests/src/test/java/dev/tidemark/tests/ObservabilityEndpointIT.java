package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.event.TableId;
import dev.tidemark.testkit.TableComparison;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14 part 2: {@code tidemark run} with {@code observability.port} set, as its own process on a real PostgreSQL,
 * Kafka and SQLite target. {@code /health} turns 200 UP once streaming; {@code /metrics} counts exactly the changes
 * made per table (captured and applied), has the apply latency histogram, the lag gauges and the slot's WAL retained;
 * {@code tidemark reconcile --config} shows up there; the status page, rendered by a real headless Chromium, lists
 * each captured table with its counts and the partitions' lag; dropping the target table the sink wrote stops the
 * sink, and {@code /health} answers 503 with that one line until the process exits 3.
 */
class ObservabilityEndpointIT {
    static final TableId ORDERS = new TableId("public", "orders");
    static final TableId CUSTOMERS = new TableId("public", "customers");
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path dir;

    @Test
    void healthMetricsAndStatusPageOfARunningPipeline() throws Exception {
        HeadlessChromium.requireInstalled();
        try (CdcFixture f = new CdcFixture("observe", dir, List.of(ORDERS, CUSTOMERS))) {
            f.sql("CREATE TABLE public.orders (id int PRIMARY KEY, note text)", "CREATE TABLE public.customers (id int PRIMARY KEY, name text)");
            int port = freePort();
            String base = "http://127.0.0.1:" + port;
            Path yaml = dir.resolve("pipeline.yaml");
            Files.writeString(yaml, String.join("\n",
                    "name: " + f.name,
                    "source:",
                    "  url: " + f.pg.jdbcUrl(f.database),
                    "  user: " + f.pg.user(),
                    "  password: \"" + f.pg.password() + "\"",
                    "  tables: [public.orders, public.customers]",
                    "  slot: slot_" + f.name,
                    "  publication: pub_" + f.name,
                    "kafka:",
                    "  bootstrapServers: " + f.bootstrap,
                    "  topicPrefix: " + f.name,
                    "  partitions: 2",
                    "target:",
                    "  url: " + f.targetUrl("target.db"),
                    "stateDir: state",
                    "observability:",
                    "  port: " + port,
                    ""));
            ProcessBuilder pb = new ProcessBuilder(ChildJvm.tidemark(List.of(), "run", "--config", yaml.toString()));
            Path log = dir.resolve("run.log");
            pb.redirectErrorStream(true).redirectOutput(log.toFile());
            Process p = pb.start();
            try {
                await("GET /health answers 200 UP once capture and the sink stream").atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(250)).failFast("tidemark run exited early", () -> !p.isAlive())
                        .until(() -> get(base + "/health").status() == 200);
                assertThat(get(base + "/health").body()).isEqualTo("{\"status\":\"UP\",\"live\":true,\"ready\":true,\"degraded\":false,\"reason\":\"streaming\"}\n");

                // orders: 20 inserts, 5 updates, 3 deletes = 28 changes; customers: 4 inserts, 1 update = 5
                f.sql("INSERT INTO orders SELECT g, 'n' || g FROM generate_series(1, 20) g",
                        "UPDATE orders SET note = 'changed' WHERE id <= 5",
                        "DELETE FROM orders WHERE id > 17",
                        "INSERT INTO customers SELECT g, 'c' || g FROM generate_series(1, 4) g",
                        "UPDATE customers SET name = 'renamed' WHERE id = 1");
                await("/metrics counts every change captured and applied, per table").atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(250)).failFast("tidemark run exited early", () -> !p.isAlive())
                        .until(() -> {
                            String m = get(base + "/metrics").body();
                            return value(m, "tidemark_events_applied_total", "table=\"public.orders\"") == 28
                                    && value(m, "tidemark_events_applied_total", "table=\"public.customers\"") == 5;
                        });
                assertThat(equal(f, ORDERS, "orders") && equal(f, CUSTOMERS, "customers")).as("target equals the source").isTrue();

                await("lag gauges at 0 for every partition and the slot's WAL retained read").atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(250)).until(() -> {
                            String m = get(base + "/metrics").body();
                            return lines(m, "tidemark_consumer_lag_records{").size() == 4
                                    && lines(m, "tidemark_consumer_lag_records{").stream().allMatch(l -> l.endsWith(" 0.0"))
                                    && lines(m, "tidemark_consumer_lag_seconds{").stream().allMatch(l -> l.endsWith(" 0.0"))
                                    && value(m, "tidemark_slot_wal_retained_bytes", "slot=\"slot_" + f.name + "\"") >= 0;
                        });
                CliRun reconcile = CliRun.run("reconcile", "--config", yaml.toString(), "--settle", "0s");
                assertThat(reconcile.exit()).as("reconcile: " + reconcile.out() + reconcile.err()).isZero();
                await("the last reconcile on /metrics").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                        .until(() -> lines(get(base + "/metrics").body(), "tidemark_reconcile_differences{").size() == 6);

                // tidemark watermark, a separate command, records its runs in the same target: the endpoint reads them there
                Path invoices = dir.resolve("invoices.db");
                try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + invoices); Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, modified TEXT NOT NULL, total NUMERIC(8,2))");
                    s.execute("CREATE INDEX ix_invoices_modified ON invoices (modified)");
                    for (int i = 1; i <= 12; i++) {
                        s.execute(String.format("INSERT INTO invoices VALUES (%d, '2013-%02d-01 12:00:00', %d.50)", i, i, i));
                    }
                }
                CliRun watermark = CliRun.run("watermark", "--source", "jdbc:sqlite:" + invoices, "--target", f.targetUrl("target.db"),
                        "--table", "invoices", "--key", "id", "--cursor", "modified", "--settle", "0s", "--no-progress");
                assertThat(watermark.exit()).as("watermark: " + watermark.out() + watermark.err()).isZero();
                await("the watermark run on /metrics").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                        .until(() -> value(get(base + "/metrics").body(), "tidemark_watermark_runs", "invoices") == 1);

                String metrics = get(base + "/metrics").body();
                assertThat(value(metrics, "tidemark_watermark_last_run_rows", "invoices")).as("rows of the last watermark run").isEqualTo(12);
                Files.writeString(Path.of("target", "observability-metrics.txt"), metrics);
                assertThat(value(metrics, "tidemark_events_captured_total", "table=\"public.orders\"")).isEqualTo(28);
                assertThat(value(metrics, "tidemark_events_captured_total", "table=\"public.customers\"")).isEqualTo(5);
                assertThat(lines(metrics, "tidemark_batch_apply_seconds_bucket{")).as("latency histogram buckets").hasSizeGreaterThan(10)
                        .anyMatch(l -> l.contains("le=\"+Inf\""));
                assertThat(value(metrics, "tidemark_batch_apply_seconds_count", "pipeline=")).isPositive();
                assertThat(lines(metrics, "tidemark_reconcile_differences{")).allMatch(l -> l.endsWith(" 0.0"));

                // the status page as a real browser renders it
                HeadlessChromium chromium = new HeadlessChromium(dir);
                String dom = chromium.dumpDom(base + "/");
                assertThat(rowCells(dom, "data-table=\"public.orders\"")).containsExactly("public.orders", f.name + ".public.orders", "28", "28");
                assertThat(rowCells(dom, "data-table=\"public.customers\"")).containsExactly("public.customers", f.name + ".public.customers", "5", "5");
                for (String topic : List.of(f.name + ".public.orders", f.name + ".public.customers")) {
                    for (int partition = 0; partition < 2; partition++) {
                        assertThat(rowCells(dom, "data-partition=\"" + topic + "-" + partition + "\"")).as("lag row of " + topic + "-" + partition)
                                .containsExactly(topic + "-" + partition, "0", "0.0");
                    }
                }
                assertThat(dom).contains("<span class=\"UP\">UP</span>").containsPattern("<span id=\"wal\">[0-9.]+ (B|KiB|MiB)</span>")
                        .contains("<td>public.orders</td><td class=\"n\">0</td><td class=\"n\">0</td><td class=\"n\">0</td>")
                        .containsPattern("<tr><td>[a-z.]*invoices</td><td>[^<]+</td><td>initial</td><td>[a-z]+</td><td class=\"n\">12</td></tr>");
                if (!f.pg.password().isEmpty()) {
                    assertThat(dom).as("the source password never reaches the page").doesNotContain(f.pg.password());
                }
                Path png = Path.of("target", "status-page.png");
                chromium.screenshot(base + "/", png);
                byte[] image = Files.readAllBytes(png);
                assertThat(image.length).as("screenshot size").isGreaterThan(10_000);
                assertThat(new String(image, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).as("PNG signature").isEqualTo("PNG");

                // a real fault: the target table the sink wrote is dropped, the next change stops the sink
                try (Connection t = DriverManager.getConnection(f.targetUrl("target.db")); Statement s = t.createStatement()) {
                    s.execute("DROP TABLE \"orders\"");
                }
                f.sql("INSERT INTO orders VALUES (100, 'after the drop')");
                await("GET /health answers 503 naming the dropped table").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .until(() -> get(base + "/health").status() == 503);
                JsonNode down = JSON.readTree(get(base + "/health").body());
                assertThat(down.path("status").asText()).isEqualTo("DOWN");
                assertThat(down.path("ready").asBoolean()).isFalse();
                assertThat(down.path("reason").asText()).startsWith("sink stopped: table orders was written by this sink")
                        .contains("`tidemark snapshot --config ", " --table public.orders`").doesNotContain("\n", "--replay-from");
                await("/health says live false once the command's loop has ended").atMost(Duration.ofSeconds(10))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> JSON.readTree(get(base + "/health").body()).path("live").asText(), "false"::equals);
                assertThat(chromium.dumpDom(base + "/")).contains("<span class=\"DOWN\">DOWN</span>").contains("sink stopped: ");
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exited after the fault").isTrue();
                assertThat(p.exitValue()).as("exit code; log:\n" + Files.readString(log)).isEqualTo(3);
            } finally {
                p.destroyForcibly();
            }
        }
    }

    private Answer get(String url) throws InterruptedException {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body());
        } catch (java.io.IOException e) {
            return new Answer(0, "no answer from " + url + ": " + e.getMessage());
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static List<String> lines(String metrics, String prefix) {
        return metrics.lines().filter(l -> l.startsWith(prefix)).toList();
    }

    /** The value of the one sample of {@code name} whose labels contain {@code label}; -1 when there is none. */
    private static long value(String metrics, String name, String label) {
        return metrics.lines().filter(l -> l.startsWith(name + "{") && l.contains(label)).findFirst()
                .map(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).orElse(-1L);
    }

    /** The text of each cell of the table row carrying {@code attribute}, as the browser serialised it. */
    private static List<String> rowCells(String dom, String attribute) {
        int at = dom.indexOf("<tr " + attribute);
        assertThat(at).as("row " + attribute + " in the DOM:\n" + dom).isNotNegative();
        String row = dom.substring(at, dom.indexOf("</tr>", at));
        Matcher m = Pattern.compile("<td[^>]*>([^<]*)</td>").matcher(row);
        List<String> cells = new java.util.ArrayList<>();
        while (m.find()) {
            cells.add(m.group(1));
        }
        return cells;
    }

    private static boolean equal(CdcFixture f, TableId table, String target) {
        try (Connection t = DriverManager.getConnection(f.targetUrl("target.db"))) {
            return TableComparison.compare(f.source, table, List.of("id"), t, target, TableComparison.QuoteStyle.DOUBLE).equal();
        } catch (Exception e) {
            return false;
        }
    }

    /** One answer of the endpoint; status 0 when it did not answer (not listening yet, or gone). */
    private record Answer(int status, String body) {
    }
}
