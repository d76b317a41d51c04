package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import java.sql.SQLException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the engine's failure into what the user needs: when the replication slot is gone, one line naming the slot,
 * the offsets file and the ways on ({@link CaptureRefusedException}) instead of Debezium's stack trace; any other
 * failure is kept as it is. A value Debezium could not convert (capture runs with
 * {@code event.converting.failure.handling.mode=fail}) is named by table, column and type, with the way on.
 */
final class CaptureFailures {
    private static final Pattern CONVERSION = Pattern.compile("Failed to properly convert data value for '(.+)\\.([^.']+)' of type (\\S+)");

    private CaptureFailures() {
    }

    /** One line for a value Debezium could not convert, found anywhere in {@code failure}'s causes, or empty. */
    static Optional<String> conversion(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            Matcher m = t.getMessage() == null ? null : CONVERSION.matcher(t.getMessage());
            if (m != null && m.find()) {
                String table = m.group(1);
                String column = m.group(2);
                String type = m.group(3);
                String which = type.equalsIgnoreCase("numeric") ? " (for numeric: NaN or ±Infinity, which have no exact decimal form)" : "";
                return Optional.of("capture stopped: table " + table + " column " + column + " (type " + type + ") holds a value "
                        + "that cannot be carried exactly in a change event" + which + "; nothing from that change on was sent. "
                        + "Leave the column out of capture (source.excludeColumns: [" + table + "." + column + "]) and start capture again");
            }
        }
        return Optional.empty();
    }

    /**
     * One line for a change event Kafka refused as too large: the topic, the row's key, its source offset, its size and
     * the limit, and the two ways on. Nothing from that event on was sent (capture stops before marking it processed).
     */
    static String tooLarge(String topic, Object key, java.util.Map<String, ?> sourceOffset, long bytes, int limit, String kafkaMessage) {
        return "capture stopped: the change of the row with key " + key + " for topic " + topic + " (source offset "
                + sourceOffset + ") is " + bytes + " bytes as a Kafka record and Kafka refused it (" + kafkaMessage + "); "
                + "capture sends events of up to " + limit + " bytes (kafka.properties max.request.size) and raises its topics'"
                + " max.message.bytes to match. Nothing from that change on was sent. Raise max.request.size in kafka.properties"
                + " above " + bytes + " (and the topic's max.message.bytes if Tidemark may not), or leave the large column out"
                + " with source.excludeColumns, then start capture again";
    }

    static Throwable explain(PipelineConfig config, SourceSlots slots, String configLabel, String command, String message, Throwable error) {
        Throwable failure = error != null ? error : new IllegalStateException(message);
        Optional<String> conversion = conversion(failure).or(() -> conversion(new IllegalStateException(message)));
        if (conversion.isPresent()) {
            IllegalStateException e = new IllegalStateException(conversion.get());
            e.initCause(failure);
            return e;
        }
        SlotState slot;
        try {
            slot = slots.read();
        } catch (SQLException | RuntimeException e) {
            return failure; // the source cannot be asked: keep Debezium's own account
        }
        if (slot instanceof SlotState.Absent && slots.seen()) { // never seen: it was not created, nothing was dropped
            StoredOffsets stored = OffsetsFile.read(config.offsetsFile());
            String position = stored instanceof StoredOffsets.Present p ? " holds position " + p.position().map(Lsn::toString).orElse("(none)")
                    : stored instanceof StoredOffsets.Damaged d ? " is damaged (" + d.reason() + ")" : " does not exist";
            CaptureRefusedException e = new CaptureRefusedException("capture stopped: replication slot \"" + config.source().slot()
                    + "\" was dropped while capture ran; the offsets file " + config.offsetsFile() + position
                    + " and the changes since then are gone from the server. " + CaptureStartDecision.waysOn(configLabel, command, true));
            e.initCause(failure);
            return e;
        }
        return failure;
    }
}
