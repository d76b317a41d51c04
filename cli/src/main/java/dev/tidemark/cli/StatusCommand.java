package dev.tidemark.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import ch.qos.logback.classic.Level;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.cli.status.PipelineStatus;
import dev.tidemark.cli.status.StatusReader;
import dev.tidemark.cli.proof.ReconcileRuns;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Where a pipeline stands: replication slot, topic end offsets, offsets stored in the target, lag. Read-only: it
 * creates no topic, no target file and no table; a lag it cannot compute is "unknown", never 0.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show a pipeline's replication slot (WAL it retains), each topic partition's end offset, the offset "
                + "stored in the target and the lag between them; changes nothing. Exit 0 when everything could be read, 3 otherwise.")
final class StatusCommand extends PipelineFileCommand {
    @Option(names = "--json", description = "print JSON instead of a table")
    boolean json;

    @Override
    int call(PipelineConfig cfg) throws Exception {
        // status reports an unreachable broker itself, as one problem line; the Kafka client's own retries are noise
        if (LoggerFactory.getLogger("org.apache.kafka") instanceof ch.qos.logback.classic.Logger kafkaLog) {
            kafkaLog.setLevel(Level.OFF);
        }
        PipelineStatus s = StatusReader.read(cfg).naming(config.toString());
        if (json) {
            System.out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(s));
        } else {
            print(s);
            scheduledReconcile(cfg);
        }
        return s.problems().isEmpty() ? ExitCodes.OK : ExitCodes.RUNTIME;
    }

    /** The newest scheduled reconcile of each table, kept in the target; a target it cannot read is already a problem above. */
    private static void scheduledReconcile(PipelineConfig cfg) {
        try {
            ReconcileRuns.lines(ReconcileRuns.read(cfg)).forEach(l -> System.out.println("  " + l));
        } catch (java.sql.SQLException e) {
            System.out.println("  scheduled reconcile: unknown (" + dev.tidemark.jdbc.UrlMask.mask(e.getMessage()) + ")");
        }
    }

    private static void print(PipelineStatus s) {
        System.out.println("pipeline " + s.pipeline() + " at " + s.readAt());
        PipelineStatus.Slot slot = s.slot();
        if (slot != null) {
            System.out.println(!slot.exists() ? "  slot " + slot.name() + (s.offsets().equals("missing") ? ": not created yet"
                    : ": MISSING (capture offsets exist)")
                    : String.format("  slot %s: %s, confirmed %s, server at %s, retains %,d bytes of WAL", slot.name(),
                    slot.active() ? "active" : "inactive", slot.confirmedFlushLsn(), slot.currentLsn(), slot.retainedWalBytes()));
        }
        System.out.println("  capture offsets: " + s.offsets());
        System.out.printf("  %-40s %9s %12s %12s %10s%n", "topic", "partition", "end", "applied", "lag");
        for (PipelineStatus.Partition p : s.partitions()) {
            System.out.printf("  %-40s %9d %12d %12s %10s%n", p.topic(), p.partition(), p.endOffset(),
                    p.storedOffset() == null ? "unknown" : p.storedOffset(), p.lag() == null ? "unknown" : p.lag());
        }
        System.out.println(s.totalLag() == null ? "  total lag: unknown (see the problems below)"
                : String.format("  total lag: %,d events", s.totalLag()));
        s.acceptedGaps().forEach(g -> System.out.println("  accepted gap (changes not captured): " + g));
        s.noLongerCaptured().forEach(t -> System.out.println("  table " + t + ": no longer captured (removed from source.tables; "
                + "its target rows are kept)"));
        s.problems().forEach(p -> System.out.println("  problem: " + p));
    }
}
