package dev.tidemark.cli.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.PipelineConfigParser;
import dev.tidemark.jdbc.UsageException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The endpoint before any pipeline half runs (no servers needed: nothing it probes answers). */
class ObservabilityServerTest {
    @TempDir
    Path dir;

    private PipelineConfig config(int port) {
        return PipelineConfigParser.parse("""
                name: shop
                source: {url: "jdbc:postgresql://127.0.0.1:1/app", password: "pw-never-shown", tables: [public.orders]}
                kafka: {bootstrapServers: "127.0.0.1:1"}
                target: {url: "jdbc:sqlite:replica.db"}
                observability: {port: %d}
                """.formatted(port), "t.yaml", dir, Map.<String, String>of()::get);
    }

    @Test
    void aPortInUseIsOneLineNamingTheKeys() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            UsageException e = catchThrowableOfType(UsageException.class,
                    () -> ObservabilityServer.start(config(taken.getLocalPort()), "run", "t.yaml", true, true));
            assertThat(e.getMessage()).startsWith("cannot listen on observability.host 127.0.0.1 observability.port " + taken.getLocalPort())
                    .contains("choose a free observability.port").doesNotContain("\n");
        }
    }

    @Test
    void beforeTheSidecarStartedHealthIsDownAndThePageShowsNoSecret() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        HttpClient http = HttpClient.newHttpClient();
        try (ObservabilityServer server = ObservabilityServer.start(config(port), "run", "t.yaml", true, true)) {
            HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(503);
            assertThat(health.body()).startsWith("{\"status\":\"DOWN\",\"live\":true,\"ready\":false,\"degraded\":false,\"reason\":\"");
            assertThat(health.headers().firstValue("Content-Type")).hasValue("application/json");
            HttpResponse<String> ready = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ready.statusCode()).as("readiness as /health").isEqualTo(503);
            HttpResponse<String> live = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/live")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(live.statusCode()).as("live while starting: a liveness probe must not restart a starting pipeline").isEqualTo(200);
            assertThat(live.body()).startsWith("{\"status\":\"DOWN\",\"live\":true,\"ready\":false,");
            server.loopEnded();
            HttpResponse<String> ended = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/live")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ended.statusCode()).as("not live once the loop ended").isEqualTo(503);
            assertThat(server.metrics().scrape()).contains("tidemark_health_live{pipeline=\"shop\"} 0.0")
                    .contains("tidemark_health_ready{pipeline=\"shop\"} 0.0").contains("tidemark_health_degraded{pipeline=\"shop\"} 0.0");

            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("Tidemark pipeline <span id=\"pipeline\">shop</span>").doesNotContain("pw-never-shown");

            HttpResponse<String> other = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/admin")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(other.statusCode()).isEqualTo(404);
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);
        }
    }
}
