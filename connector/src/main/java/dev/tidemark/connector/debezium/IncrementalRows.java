package dev.tidemark.connector.debezium;

import dev.tidemark.event.SourcePosition;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Gives the rows of an incremental snapshot a position. Debezium 3.6.1 emits them with neither {@code lsn} nor
 * {@code sequence} in their {@code source} block, so the sink would store them without a position: no guard against
 * an older change, and no way to tell them from rows the snapshot no longer holds. Debezium emits a chunk's rows when
 * its stream reaches the chunk's close watermark, after every change streamed since the chunk's open watermark (a key
 * changed inside the window is dropped from the chunk, its streamed change stands). So the position of the last
 * record streamed before them — at or after the open watermark, which follows the snapshot's signal — places each row
 * after everything it already reflects and before every change streamed after it; capture stamps that position
 * ({@code lsn}, {@code sequence}) into the row's {@code source} block before converting it.
 */
final class IncrementalRows {
    private IncrementalRows() {
    }

    /** True for a row read by an incremental snapshot ({@code source.snapshot = "incremental"}). */
    static boolean isIncremental(SourceRecord record) {
        Struct source = source(record);
        return source != null && source.schema().field("snapshot") != null && "incremental".equals(String.valueOf(source.get("snapshot")));
    }

    /** Writes {@code at} into the row's {@code source} block where it has none; true when it did. */
    static boolean stamp(SourceRecord record, SourcePosition.Wal at) {
        Struct source = source(record);
        if (source == null || source.schema().field("lsn") == null || source.schema().field("sequence") == null
                || source.get("lsn") != null && source.get("sequence") != null) {
            return false;
        }
        String commit = at.phase() == SourcePosition.Phase.FIRST ? "null" : "\"" + Long.toUnsignedString(at.order()) + "\"";
        source.put("lsn", at.change());
        source.put("sequence", "[" + commit + ",\"" + Long.toUnsignedString(at.change()) + "\"]");
        return true;
    }

    private static Struct source(SourceRecord record) {
        if (record.value() instanceof Struct value && value.schema().field("source") != null && value.get("source") instanceof Struct s) {
            return s;
        }
        return null;
    }
}
