package dev.tidemark.connector.debezium;

/**
 * Capture will not start (or has stopped) because continuing would lose changes silently: the message is one line
 * naming the slot, the offsets file, the WAL positions and the ways on. The command line prints it alone and exits 3.
 */
public final class CaptureRefusedException extends RuntimeException {
    public CaptureRefusedException(String oneLine) {
        super(oneLine);
    }
}
