package dev.tidemark.cli.observability;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tidemark.connector.config.ObservabilityConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.JdbcEndpoints;
import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.jdbc.UsageException;
import dev.tidemark.sink.kafka.KafkaSinkRunner;
import io.micrometer.core.instrument.Gauge;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The opt-in HTTP endpoint of {@code run}, {@code capture} and {@code sink} ({@code observability} in the pipeline
 * file), served by the JDK's {@code com.sun.net.httpserver} on one thread of its own:
 * <ul>
 * <li>{@code GET /health} and {@code GET /health/ready}: JSON {@code {status, live, ready, degraded, reason}}; 200 when
 * ready (degraded or not), else 503 ({@link Health})</li>
 * <li>{@code GET /health/live}: the same JSON; 200 while the command's loop runs, else 503</li>
 * <li>{@code GET /metrics}: Prometheus text format ({@link PipelineMeters}, {@link Probes})</li>
 * <li>{@code GET /}: the status page ({@link StatusPage})</li>
 * </ul>
 * Requests only read what the halves and the probes keep; they never wait for capture or the sink.
 * {@link #attach} hands over the sidecar once it has started; {@link #loopEnded} marks the command's loop over
 * (live false). {@link #close()} stops serving at once.
 */
public final class ObservabilityServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ObservabilityServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PipelineConfig config;
    private final String command;
    private final String configFile;
    private final Instant started = Instant.now();
    private final boolean withCapture;
    private final boolean withSink;
    private final PipelineMeters meters;
    private final Probes probes;
    private final HttpServer server;
    private final ExecutorService executor;
    private volatile Sidecar sidecar;
    private volatile boolean loopRunning = true;

    private ObservabilityServer(PipelineConfig config, String command, String configFile, boolean withCapture, boolean withSink,
                                HttpServer server) {
        this.config = config;
        this.command = command;
        this.configFile = configFile;
        this.withCapture = withCapture;
        this.withSink = withSink;
        this.meters = new PipelineMeters(config);
        this.probes = new Probes(config, meters.registry(), withSink);
        this.server = server;
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tidemark-observability-http");
            t.setDaemon(true);
            return t;
        });
        healthGauge("live", "1 while the command's loop runs (GET /health/live answers 200)", Health::live);
        healthGauge("ready", "1 when GET /health answers 200", Health::ready);
        healthGauge("degraded", "1 when the scheduled reconcile left drift or is stale (GET /health says DEGRADED)", Health::degraded);
        if (withSink) {
            meters.deadLetters(() -> {
                Sidecar s = sidecar;
                return s == null ? 0 : s.sink().map(KafkaSinkRunner::deadLettered).orElse(0L);
            });
        }
    }

    /** {@code tidemark_health_<name>}: 1 while {@code value} holds for {@link #health()} at the scrape, else 0. */
    private void healthGauge(String name, String description, Predicate<Health> value) {
        Gauge.builder("tidemark.health." + name, this, s -> value.test(s.health()) ? 1 : 0).description(description)
                .register(meters.registry());
    }

    /**
     * Listens on {@code observability.host:port}; a port that cannot be bound is a {@link UsageException} (exit 2)
     * naming the key. {@code configFile} is the pipeline file as given, named in the repair command of a degraded reason.
     */
    public static ObservabilityServer start(PipelineConfig config, String command, String configFile, boolean withCapture,
                                            boolean withSink) {
        ObservabilityConfig o = config.observability();
        HttpServer http;
        try {
            http = HttpServer.create(new InetSocketAddress(o.host(), o.port()), 16);
        } catch (IOException | RuntimeException e) {
            throw new UsageException("cannot listen on observability.host " + o.host() + " observability.port " + o.port() + " ("
                    + e.getMessage() + "); choose a free observability.port or another observability.host, or remove observability");
        }
        ObservabilityServer s = new ObservabilityServer(config, command, configFile, withCapture, withSink, http);
        http.createContext("/", s::handle);
        http.setExecutor(s.executor);
        http.start();
        s.probes.start();
        log.info("observability endpoint of {} on http://{}:{}/ (/health, /metrics)", config.name(), o.host(), http.getAddress().getPort());
        return s;
    }

    /** The hooks capture and the sink report to. */
    public PipelineMeters metrics() {
        return meters;
    }

    public void attach(Sidecar running) {
        this.sidecar = running;
    }

    /** The command's loop is over (stopping, draining or failed): {@code live} is false from now on. */
    public void loopEnded() {
        loopRunning = false;
    }

    public Health health() {
        Sidecar s = sidecar;
        Health.Half capture = s == null ? SidecarHealth.starting(withCapture, "capture is starting") : SidecarHealth.capture(s);
        Health.Half sink = s == null ? SidecarHealth.starting(withSink, "the sink is starting") : SidecarHealth.sink(s);
        Duration every = withSink ? config.reconcile().every() : Duration.ZERO;
        Optional<String> degraded = ProofDegradation.decide(new ProofDegradation.Inputs(every, configFile, started, probes.scheduledReconcile(),
                Duration.ofSeconds(Probes.INTERVAL_SECONDS)), Instant.now());
        return Health.decide(new Health.Inputs(loopRunning, capture, sink, probes.kafkaReachable(), probes.kafkaProblem(), degraded));
    }

    StatusView view() {
        List<StatusView.TableRow> tables = config.source().tables().stream().map(t -> row(t)).toList();
        return new StatusView(config.name(), command, endpoint(config.source().jdbcUrl()), endpoint(config.target().jdbcUrl()),
                config.source().slot(), health(), tables, meters.lags(), probes.walRetained(), probes.watermarkRuns(),
                probes.lastReconcile(), probes.problems());
    }

    private StatusView.TableRow row(TableId t) {
        return new StatusView.TableRow(t.toString(), config.topicFor(t), meters.capturedCount(t), meters.appliedCount(t));
    }

    private static String endpoint(String url) {
        return JdbcEndpoints.host(url) + " (" + UrlMask.mask(url) + ")";
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            if (!"GET".equals(x.getRequestMethod()) && !"HEAD".equals(x.getRequestMethod())) {
                send(x, 405, "text/plain; charset=utf-8", "only GET\n");
                return;
            }
            switch (x.getRequestURI().getPath()) {
                case "/health", "/health/ready" -> sendHealth(x, Health::ready);
                case "/health/live" -> sendHealth(x, Health::live);
                case "/metrics" -> send(x, 200, "text/plain; version=0.0.4; charset=utf-8", meters.scrape());
                case "/" -> send(x, 200, "text/html; charset=utf-8", StatusPage.render(view()));
                default -> send(x, 404, "text/plain; charset=utf-8", "not found: try /, /health, /health/live, /health/ready or /metrics\n");
            }
        } catch (RuntimeException e) {
            log.warn("observability request {} failed: {}", x.getRequestURI(), e.getMessage());
            throw e;
        }
    }

    /** The health JSON; 200 when {@code up} holds, else 503. */
    private void sendHealth(HttpExchange x, Predicate<Health> up) throws IOException {
        Health h = health();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", h.status());
        body.put("live", h.live());
        body.put("ready", h.ready());
        body.put("degraded", h.degraded());
        body.put("reason", h.reason());
        send(x, up.test(h) ? 200 : 503, "application/json", JSON.writeValueAsString(body) + "\n");
    }

    private static void send(HttpExchange x, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", type);
        x.getResponseHeaders().set("Cache-Control", "no-store");
        boolean head = "HEAD".equals(x.getRequestMethod());
        x.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream o = x.getResponseBody()) {
                o.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        probes.close();
        meters.close();
    }
}
