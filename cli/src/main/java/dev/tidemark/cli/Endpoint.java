package dev.tidemark.cli;

import dev.tidemark.cli.observability.ObservabilityServer;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.pipeline.PipelineMetrics;
import dev.tidemark.connector.pipeline.Sidecar;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The observability endpoint of one pipeline command, or nothing when the pipeline file has no
 * {@code observability}. After a half stopped on a fault the command keeps answering {@code /health} (503 with the
 * reason) for {@value #HOLD_SECONDS} s before it exits 3, so a supervisor's probe and a scraper see why; a stop
 * request ends that wait at once.
 */
final class Endpoint implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Endpoint.class);
    static final int HOLD_SECONDS = 15;

    private final ObservabilityServer server;

    private Endpoint(ObservabilityServer server) {
        this.server = server;
    }

    static Endpoint open(PipelineConfig config, String command, String configFile, boolean capture, boolean sink) {
        return new Endpoint(config.observability().enabled() ? ObservabilityServer.start(config, command, configFile, capture, sink) : null);
    }

    PipelineMetrics metrics() {
        return server == null ? PipelineMetrics.NONE : server.metrics();
    }

    void attach(Sidecar sidecar) {
        if (server != null) {
            server.attach(sidecar);
        }
    }

    void loopEnded() {
        if (server != null) {
            server.loopEnded();
        }
    }

    void holdOnFailure(Termination termination) throws InterruptedException {
        if (server != null) {
            log.info("/health answers 503 with the reason for {} s before the exit", HOLD_SECONDS);
            termination.awaitRequest(HOLD_SECONDS * 1000L);
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
