package dev.tidemark.cli;

import dev.tidemark.cli.proof.ReconcileScheduler;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.debezium.CaptureChoice;
import dev.tidemark.connector.debezium.SnapshotStop;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.connector.pipeline.SinkChoices;
import dev.tidemark.sink.kafka.ConfigFileMention;
import dev.tidemark.sink.kafka.ReplayFrom;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;

/**
 * Shared body of {@code run}, {@code capture} and {@code sink}: start, wait for a signal or a failure, drain. Exit 0
 * after SIGTERM (drained), 130 after Ctrl-C (drained too), 3 when a half failed. With {@code observability} in the
 * pipeline file the HTTP endpoint ({@link Endpoint}) runs from before the start until the exit. The libraries' errors and
 * stack traces go to a file in the state folder, not the terminal ({@link LibraryDetail}); the failure line names it.
 */
abstract class PipelineCommand extends PipelineFileCommand {
    private static final Logger log = LoggerFactory.getLogger(PipelineCommand.class);

    abstract boolean capture();

    abstract boolean sink();

    ReplayFrom replay() {
        return new ReplayFrom.Stored();
    }

    SinkChoices sinkChoices() {
        return SinkChoices.DEFAULT;
    }

    /** What the user chose for a slot and offsets that disagree; only capture commands offer a choice. */
    CaptureChoice captureChoice() {
        return CaptureChoice.NONE;
    }

    @Override
    int call(PipelineConfig cfg) throws Exception {
        ReplayFrom replay = replay();
        Termination termination = Termination.install();
        try (Endpoint endpoint = Endpoint.open(cfg, getClass().getAnnotation(Command.class).name(), config.toString(), capture(), sink());
             LibraryDetail detail = LibraryDetail.route(cfg.stateDir(), cfg.name())) {
            return runSidecar(cfg, replay, termination, endpoint, detail);
        }
    }

    private Integer runSidecar(PipelineConfig cfg, ReplayFrom replay, Termination termination, Endpoint endpoint, LibraryDetail detail)
            throws InterruptedException {
        try (Sidecar sidecar = Sidecar.start(cfg, capture(), sink(), replay, captureChoice(), config.toString(), sinkChoices(),
                endpoint.metrics())) {
            endpoint.attach(sidecar);
            Optional<ReconcileScheduler> proof = sink() ? ReconcileScheduler.start(cfg, holder(cfg)) : Optional.empty();
            while (!termination.awaitRequest(200)) {
                if (sidecar.halted()) {
                    break;
                }
            }
            proof.ifPresent(ReconcileScheduler::close);
            if (termination.isRequested()) {
                log.info("stop requested: draining {}", cfg.name());
            }
            endpoint.loopEnded();
            sidecar.close();
            if (termination.isRequested() && capture()) {
                SnapshotStop.explain(cfg, config.toString(), getClass().getAnnotation(Command.class).name())
                        .ifPresent(line -> System.err.println("tidemark: " + line));
            }
            if (sidecar.failure().isPresent()) {
                endpoint.holdOnFailure(termination);
                System.err.println("tidemark: " + ConfigFileMention.fill(TidemarkCommand.oneLine(sidecar.failure().get()), config.toString())
                        + detail.note());
                return ExitCodes.RUNTIME;
            }
        }
        // SIGTERM is how a supervisor stops the sidecar: a drained stop is success. Ctrl-C says so (130).
        return termination.isRequested() && termination.byCtrlC() ? ExitCodes.INTERRUPTED : ExitCodes.OK;
    }

    /** Who holds the target's reconcile lease while this process reconciles: pipeline, host and process id. */
    private static String holder(PipelineConfig cfg) {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "localhost";
        }
        return cfg.name() + "@" + host + " pid " + ProcessHandle.current().pid();
    }
}
