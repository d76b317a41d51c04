package dev.tidemark.cli;

import dev.tidemark.jdbc.UsageException;
import dev.tidemark.connector.debezium.CaptureChoice;
import picocli.CommandLine.Option;

/**
 * The explicit choices capture offers when its replication slot and its stored offsets disagree (offsets missing or
 * damaged, slot dropped, slot advanced): without one of them capture refuses to start (exit 3). Mixed into
 * {@code run} and {@code capture}.
 */
final class CaptureChoiceOptions {
    @Option(names = "--resnapshot", description = "Drop and re-create the replication slot, set the offsets file aside and take a "
            + "new snapshot; when it ends, the target rows it no longer holds are removed (for one table: tidemark snapshot).")
    boolean resnapshot;

    @Option(names = "--accept-gap", description = "Stream from the replication slot's current position without a snapshot; the "
            + "changes between the stored offsets and the slot are NOT captured.")
    boolean acceptGap;

    CaptureChoice choice() {
        if (resnapshot && acceptGap) {
            throw new UsageException("--resnapshot and --accept-gap exclude each other: choose one");
        }
        return resnapshot ? CaptureChoice.RESNAPSHOT : acceptGap ? CaptureChoice.ACCEPT_GAP : CaptureChoice.NONE;
    }
}
