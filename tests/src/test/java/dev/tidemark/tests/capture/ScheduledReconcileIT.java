package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.TableId;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.tests.CliRun;
import dev.tidemark.tests.deploy.DeployedQueries;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 items 1–3: {@code tidemark run} with a {@code reconcile:} schedule of a few seconds, as its own process on a
 * real PostgreSQL, Kafka and SQLite target. A target row changed by hand shows up as drift in {@code /metrics} and in
 * {@code tidemark status} (read from the target's {@code tidemark_reconcile_runs}); {@code repair: report} leaves it
 * as it is, {@code repair: auto} repairs it through the sink writer and the drift gauge returns to 0; a difference
 * that CDC heals within {@code settle} (capture stopped while the scan runs, started again before the re-check) is
 * never repaired. While drift stays, {@code /health} answers 200 DEGRADED naming the table and the repair command, and
 * that command, run word for word, brings it back to UP; every metric the shipped Grafana dashboard and Prometheus
 * alerts query is in the real scrape.
 */
class ScheduledReconcileIT {
    static final TableId ITEMS = new TableId("public", "items");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void repairReportShowsTheDriftAndLeavesTheRowAlone() throws Exception {
        try (CaptureFixture f = new CaptureFixture("proofreport", dir, List.of(ITEMS))) {
            Running run = tampered(f, "{every: 3s, settle: 1s, repair: report}");
            awaitGauge(run, "tidemark_reconcile_drift_keys", 1);
            assertThat(status(f)).containsPattern("reconcile public.items at [^:]+:[^:]+:[^:]+: different; source 10 rows, target 10 rows; "
                    + "missing 0, surplus 0, changed 1; repaired 0; still different 1");
            long runs = recordedRuns(f);
            await("two more scheduled runs").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> recordedRuns(f) >= runs + 2);
            assertThat(note(f, 3)).as("repair: report changes nothing").isEqualTo("by hand");
            OptionalDouble lastSuccess = gauge(run.metrics(), "tidemark_reconcile_last_success_timestamp_seconds", "");
            assertThat(lastSuccess).isPresent();
            assertThat(lastSuccess.getAsDouble()).as("a complete run ended within the last two minutes")
                    .isGreaterThan(System.currentTimeMillis() / 1000.0 - 120);
            assertThat(Files.readString(run.log)).contains("repair public.items → items: upsert 1 row(s) from the source")
                    .contains("repair: report, nothing changed");
            String scrape = run.metrics();
            assertThat(DeployedQueries.missingFrom(scrape, DeployedQueries.servedNames()))
                    .as("metrics deploy/grafana/tidemark.json and deploy/prometheus/alerts.yml query, absent from the scrape:%n%s", scrape).isEmpty();
            degradedUntilRepaired(f, run);
        }
    }

    /** /health says DEGRADED (still 200) with the drift; the repair command it names, run as it reads, brings back UP. */
    private void degradedUntilRepaired(CaptureFixture f, Running run) throws Exception {
        await("/health DEGRADED with the drift").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> run.health().path("status").asText(), "DEGRADED"::equals);
        HttpResponse<String> degraded = run.get("/health");
        assertThat(degraded.statusCode()).as("degraded is still ready: " + degraded.body()).isEqualTo(200);
        JsonNode h = JSON.readTree(degraded.body());
        assertThat(List.of(h.path("live").asBoolean(), h.path("ready").asBoolean(), h.path("degraded").asBoolean())).containsExactly(true, true, true);
        String yaml = dir.resolve("pipeline.yaml").toString();
        String repair = "tidemark reconcile --config " + yaml + " --table public.items --repair --apply";
        assertThat(h.path("reason").asText()).startsWith("scheduled reconcile found drift: public.items 1 key(s) still different after the run of ")
                .endsWith("; repair: " + repair).doesNotContain("\n");
        assertThat(gauge(run.metrics(), "tidemark_health_degraded", "")).hasValue(1);
        String[] words = repair.substring("tidemark ".length()).split(" ");
        CliRun fix = CliRun.run(words);
        assertThat(fix.exit()).as("%s%n%s%s", repair, fix.out(), fix.err()).isZero();
        assertThat(note(f, 3)).as("the row repaired").isEqualTo("n3");
        await("/health UP once the next scheduled run finds the table equal").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> run.health().path("status").asText(), "UP"::equals);
        assertThat(gauge(run.metrics(), "tidemark_reconcile_drift_keys", "public.items")).hasValue(0);
    }

    @Test
    void repairAutoRepairsTheRowAndTheDriftGaugeReturnsToZero() throws Exception {
        try (CaptureFixture f = new CaptureFixture("proofauto", dir, List.of(ITEMS))) {
            Running run = tampered(f, "{every: 6s, settle: 1s, repair: auto}");
            awaitGauge(run, "tidemark_reconcile_found_keys", 1);
            await("the row repaired").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).until(() -> note(f, 3), "n3"::equals);
            assertThat(f.targetEqualsSource("id")).isTrue();
            await("drift 0 on /metrics, and the next run finds nothing").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                    .until(() -> {
                        String m = run.metrics();
                        return gauge(m, "tidemark_reconcile_drift_keys", "public.items").orElse(-1) == 0
                                && gauge(m, "tidemark_reconcile_found_keys", "public.items").orElse(-1) == 0;
                    });
            assertThat(status(f)).containsPattern("reconcile public.items at [^:]+:[^:]+:[^:]+: equal;").containsPattern("last differences found at [^:]+:[^:]+:[^:]+: repaired; source 10 rows, target 10 rows; "
                    + "missing 0, surplus 0, changed 1; repaired 1; still different 0");
            assertThat(Files.readString(run.log)).contains("repaired items: 1 upserted, 0 deleted");
        }
    }

    @Test
    void aDifferenceCdcHealsWithinTheSettleTimeIsNeverRepaired() throws Exception {
        try (CaptureFixture f = new CaptureFixture("proofsettle", dir, List.of(ITEMS))) {
            f.sql("CREATE TABLE public.items (id int PRIMARY KEY, note text)");
            Path yaml = pipeline(f, "", "{every: 40s, settle: 30s, repair: auto}");
            Process capture = f.spawn(dir.resolve("capture.log"), "capture", "--config", yaml.toString());
            Path sinkLog = dir.resolve("sink.log");
            Process sink = f.spawn(sinkLog, "sink", "--config", yaml.toString());
            applied(f, sink);
            capture.destroy();
            assertThat(capture.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("capture drained on SIGTERM").isTrue();
            f.sql("UPDATE items SET note = 'late' WHERE id = 4");
            await("a scheduled scan sees the change CDC has not delivered").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(250)).failFast("tidemark sink exited early", () -> !sink.isAlive())
                    .until(() -> Files.readString(sinkLog).contains("table public.items: the scan found 1 keys different"));
            f.spawn(dir.resolve("capture-again.log"), "capture", "--config", yaml.toString());
            await("CDC delivers it within the settle time").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                    .until(() -> note(f, 4), "late"::equals);
            await("the run ends").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                    .until(() -> Files.readString(sinkLog).contains("(1 re-checked, 1 settled)"));
            try (Connection c = f.connectTarget(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT \"outcome\", \"changed\", \"repaired\" FROM \"tidemark_reconcile_runs\" "
                         + "ORDER BY \"run_started_at\" DESC LIMIT 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(List.of(rs.getString(1), rs.getLong(2), rs.getLong(3))).as("outcome, changed, repaired")
                        .containsExactly("equal", 0L, 0L);
            }
            assertThat(Files.readString(sinkLog)).doesNotContain("repaired items");
        }
    }

    /** {@code tidemark run} of {@code f}'s pipeline with {@code reconcile: schedule} and the endpoint; 10 rows applied. */
    private Running start(CaptureFixture f, String schedule) throws Exception {
        f.sql("CREATE TABLE public.items (id int PRIMARY KEY, note text)");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path yaml = pipeline(f, "observability: {port: " + port + "}\n", schedule);
        Path log = dir.resolve("run.log");
        Running run = new Running(f.spawn(log, "run", "--config", yaml.toString()), log, "http://127.0.0.1:" + port);
        applied(f, run.process);
        return run;
    }

    private Path pipeline(CaptureFixture f, String more, String schedule) throws Exception {
        Path yaml = f.writeYaml();
        Files.writeString(yaml, Files.readString(yaml) + more + "reconcile: " + schedule + "\n");
        return yaml;
    }

    /** 10 rows inserted at the source and applied to the target while {@code p} runs. */
    private static void applied(CaptureFixture f, Process p) throws Exception {
        f.sql("INSERT INTO items SELECT g, 'n' || g FROM generate_series(1, 10) g");
        await("the rows applied").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                .failFast("tidemark exited early", () -> !p.isAlive()).until(() -> f.targetEqualsSource("id"));
    }

    /** {@link #start}, then a target row changed by hand once a scheduled run found the table equal. */
    private Running tampered(CaptureFixture f, String schedule) throws Exception {
        Running run = start(f, schedule);
        awaitGauge(run, "tidemark_reconcile_drift_keys", 0);
        try (Connection c = f.connectTarget(); Statement s = c.createStatement()) {
            s.execute("UPDATE \"items\" SET \"note\" = 'by hand' WHERE \"id\" = 3");
        }
        return run;
    }

    /** Waits (60 s at most) until {@code /metrics} shows {@code value} for {@code name} of public.items. */
    private static void awaitGauge(Running run, String name, double value) {
        await(name + " " + value + " on /metrics").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .failFast("tidemark run exited early", () -> !run.process.isAlive())
                .until(() -> gauge(run.metrics(), name, "public.items"), v -> v.isPresent() && v.getAsDouble() == value);
    }

    private String status(CaptureFixture f) {
        CliRun r = CliRun.run("status", "--config", dir.resolve("pipeline.yaml").toString());
        return r.out() + r.err();
    }

    private String note(CaptureFixture f, int id) throws Exception {
        try (Connection c = f.connectTarget(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT \"note\" FROM \"items\" WHERE \"id\" = " + id)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private long recordedRuns(CaptureFixture f) throws Exception {
        try (Connection c = f.connectTarget(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"tidemark_reconcile_runs\"")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The sample of {@code name} whose labels mention {@code label} ({@code ""}: the first), if the scrape has one. */
    private static OptionalDouble gauge(String scrape, String name, String label) {
        for (String line : scrape.split("\n")) {
            if ((line.startsWith(name + "{") || line.startsWith(name + " ")) && line.contains(label)) {
                String v = line.substring(line.lastIndexOf(' ') + 1);
                return v.equals("NaN") ? OptionalDouble.empty() : OptionalDouble.of(Double.parseDouble(v));
            }
        }
        return OptionalDouble.empty();
    }

    /** The running command, its log and its endpoint's address. */
    private record Running(Process process, Path log, String base) {
        String metrics() {
            try (InputStream in = new URL(base + "/metrics").openStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                return "";
            }
        }

        HttpResponse<String> get(String path) throws java.io.IOException, InterruptedException {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        JsonNode health() throws java.io.IOException, InterruptedException {
            return JSON.readTree(get("/health").body());
        }
    }
}
