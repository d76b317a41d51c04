package dev.tidemark.cli.observability;

import dev.tidemark.connector.debezium.DebeziumChangeSource;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.sink.kafka.KafkaSinkRunner;
import java.util.Optional;

/** Reads a running {@link Sidecar}'s halves as {@link Health.Half}s (no I/O: flags and failures the halves keep). */
final class SidecarHealth {
    private SidecarHealth() {
    }

    /** Before the sidecar exists (it is starting): both chosen halves are starting. */
    static Health.Half starting(boolean chosen, String what) {
        return chosen ? new Health.Half.Starting(what) : new Health.Half.Absent();
    }

    static Health.Half capture(Sidecar s) {
        Optional<DebeziumChangeSource> c = s.capture();
        if (c.isEmpty()) {
            return new Health.Half.Absent();
        }
        DebeziumChangeSource capture = c.get();
        if (capture.failure().isPresent()) {
            return new Health.Half.Failed(oneLine(capture.failure().get()));
        }
        if (capture.isStopped()) {
            return new Health.Half.Stopped();
        }
        if (!capture.isRunning()) {
            return new Health.Half.Starting("the connector task is starting");
        }
        return capture.isStreaming() ? new Health.Half.Running() : new Health.Half.Starting("initial snapshot in progress or connecting to the slot");
    }

    static Health.Half sink(Sidecar s) {
        Optional<KafkaSinkRunner> k = s.sink();
        if (k.isEmpty()) {
            return new Health.Half.Absent();
        }
        KafkaSinkRunner sink = k.get();
        if (sink.failure().isPresent()) {
            return new Health.Half.Failed(oneLine(sink.failure().get()));
        }
        if (sink.isFinished()) {
            return new Health.Half.Stopped();
        }
        return sink.assignment().isEmpty() ? new Health.Half.Starting("no partition assigned yet") : new Health.Half.Running();
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return UrlMask.mask(m.lines().findFirst().orElse(m));
    }
}
