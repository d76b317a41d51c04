package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.SourceConfig;
import java.util.Properties;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Keeps the slot moving while the captured tables are idle and other tables of the database churn.
 *
 * <p>Why: pgoutput sends only changes of the publication's tables (PostgreSQL 15 skips empty transactions), so a slot
 * whose tables are idle receives nothing, its confirmed position never moves, and it retains every byte of WAL the
 * other tables write. With {@code source.heartbeat.interval} set, Debezium runs an action query at that interval while
 * nothing arrives: a transactional logical decoding message with Tidemark's prefix
 * ({@link SourceSlots#MESSAGE_PREFIX}), which pgoutput streams like {@link PositionMarker}'s (Debezium is told to pass
 * only that prefix). Its record is marked processed without being sent, so the engine stores its offset, flushes it
 * to the slot, and the slot's retained WAL falls back. Debezium's own heartbeat records (value schema
 * {@value #HEARTBEAT_SCHEMA}) are likewise marked processed and never sent: neither ever reaches a table topic or the
 * target. No table is created in the source.
 *
 * <p>Pure: settings and a test on a record.
 */
final class Heartbeats {
    /** The value schema name of Debezium's heartbeat records. */
    static final String HEARTBEAT_SCHEMA = "io.debezium.connector.common.Heartbeat";
    /** The action query: a constant statement (no user value), run by Debezium on its own connection. */
    static final String ACTION_QUERY = "SELECT pg_logical_emit_message(true, '" + SourceSlots.MESSAGE_PREFIX + "', 'heartbeat')";

    private Heartbeats() {
    }

    /** Adds the heartbeat settings for {@code source} (none when its heartbeats are off). */
    static void configure(SourceConfig source, Properties engine) {
        if (!source.heartbeats()) {
            return;
        }
        engine.setProperty("heartbeat.interval.ms", Long.toString(source.heartbeatInterval().toMillis()));
        engine.setProperty("heartbeat.action.query", ACTION_QUERY);
    }

    /** True for Debezium's own heartbeat records (never sent to Kafka). */
    static boolean isHeartbeat(SourceRecord record) {
        Schema schema = record.valueSchema();
        return schema != null && HEARTBEAT_SCHEMA.equals(schema.name());
    }
}
