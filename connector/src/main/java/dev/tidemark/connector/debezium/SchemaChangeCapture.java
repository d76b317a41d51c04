package dev.tidemark.connector.debezium;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeDecoder;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How capture learns of schema changes, in the mode decided at start ({@link Mode}), and what it does with each:
 *
 * <ul>
 *   <li>{@link Mode#EVENT_TRIGGER}: the source user may create event triggers ({@link EventTriggerPrivilege}), so
 *       {@link DdlTrigger} is installed and its messages arrive in the stream; each is decided by
 *       {@link SchemaChangeDecision} and becomes a {@link ChangeEvent.SchemaChange} sent to every partition of the
 *       table's topic (ahead of every later row of the table on each), or stops capture with one line.</li>
 *   <li>{@link Mode#CATALOG_COMPARISON}: no event trigger. When the columns of a table's change events differ from
 *       the last seen ({@link CatalogComparison}), the catalog is read: a column added with a default, or columns
 *       that appeared while others disappeared (a rename cannot be told from a drop and an add), stop capture with
 *       one line.</li>
 * </ul>
 * Not thread-safe: capture's consumer thread owns it.
 */
final class SchemaChangeCapture {
    private static final Logger log = LoggerFactory.getLogger(SchemaChangeCapture.class);

    /** The mode in force. */
    enum Mode { EVENT_TRIGGER, CATALOG_COMPARISON }

    /** What to do with one record. */
    sealed interface Handling {
    }

    /** Not a schema change: handle the record as before. */
    record Pass() implements Handling {
    }

    /** A schema-change message: send these records (none: nothing to carry), then mark it processed. */
    record Send(List<ProducerRecord<byte[], byte[]>> records) implements Handling {
    }

    /** Stop capture with this line before the record is marked processed. */
    record Stop(String line) implements Handling {
    }

    private final PipelineConfig config;
    private final String configLabel;
    private final Mode mode;
    private final EnvelopeEncoder encoder;
    private final CatalogComparison comparison;
    private final SourceSlots slots;
    /** The key of {@link DdlTrigger}'s signatures (event-trigger mode), else null. */
    private final String key;
    private final PartitionTruncateCapture truncates;

    private SchemaChangeCapture(PipelineConfig config, String configLabel, Mode mode, SourceSlots slots, String key) {
        this.config = config;
        this.configLabel = configLabel;
        this.mode = mode;
        this.key = key;
        this.slots = slots;
        this.encoder = new EnvelopeEncoder(config.kafka().topicPrefix(), "postgresql", config.source().database());
        this.comparison = mode == Mode.CATALOG_COMPARISON ? new CatalogComparison(config, configLabel, slots) : null;
        this.truncates = new PartitionTruncateCapture(config, configLabel, slots, key);
    }

    /** Decides the mode (installing the event trigger where the user may) and says at start which is in force. */
    static SchemaChangeCapture start(PipelineConfig config, String configLabel, SourceSlots slots) {
        try (Connection c = slots.connect()) {
            PartitionedTables.Leaves leaves = PartitionedTables.leaves(c, config.source().tables());
            if (EventTriggerPrivilege.mayCreate(c)) {
                String key = DdlTrigger.install(c, config);
                log.info(startLine(config, Mode.EVENT_TRIGGER));
                PartitionTruncateTrigger.install(c, config, leaves);
                if (!leaves.roots().isEmpty()) {
                    log.info(PartitionTruncateTrigger.startLine(config, leaves));
                }
                return new SchemaChangeCapture(config, configLabel, Mode.EVENT_TRIGGER, slots, key);
            }
            log.info(startLine(config, Mode.CATALOG_COMPARISON));
            if (!leaves.roots().isEmpty()) {
                log.warn(PartitionTruncate.catalogModeLine(config.name(), leaves.roots(), configLabel));
            }
            return new SchemaChangeCapture(config, configLabel, Mode.CATALOG_COMPARISON, slots, null);
        } catch (SQLException e) {
            throw new IllegalStateException("capture " + config.name() + ": cannot install the schema-change event trigger on the "
                    + "source: " + e.getMessage(), e);
        }
    }

    /** The names of {@link PartitionTruncateTrigger} when it is on the captured partitions (event-trigger mode), else empty. */
    Optional<PartitionTruncateTrigger.Names> truncateTrigger() {
        return mode == Mode.EVENT_TRIGGER ? Optional.of(PartitionTruncateTrigger.names(config)) : Optional.empty();
    }

    /** The start line saying which mode is in force. */
    static String startLine(PipelineConfig config, Mode mode) {
        if (mode == Mode.EVENT_TRIGGER) {
            DdlTrigger.Names n = DdlTrigger.names(config);
            return "capture " + config.name() + ": schema changes: event trigger \"" + n.startTrigger() + "\"/\"" + n.endTrigger()
                    + "\" (function " + n.schema() + "." + n.function() + ") writes each ALTER TABLE of a captured table into the "
                    + "stream, ordered before the rows that follow it";
        }
        return "capture " + config.name() + ": schema changes: catalog comparison (source user " + config.source().user()
                + " may not create event triggers, which needs a superuser): a column added with a default or a renamed column "
                + "stops capture";
    }

    Mode mode() {
        return mode;
    }

    /** What to do with {@code record} (a message of {@link DdlTrigger}, a data record, or anything else). */
    Handling handle(SourceRecord record) {
        Optional<Handling> truncate = truncates.handle(record);
        if (truncate.isPresent()) {
            return truncate.get();
        }
        Optional<byte[]> content = ddlContent(record);
        if (content.isPresent()) {
            return message(record, content.get());
        }
        if (comparison != null) {
            return comparison.check(record).<Handling>map(Stop::new).orElse(new Pass());
        }
        return new Pass();
    }

    private Handling message(SourceRecord record, byte[] content) {
        Optional<byte[]> json = DdlSignature.verify(key, content);
        if (json.isEmpty()) {
            if (!namesPipeline(content, config.name(), b -> DdlMessage.parse(b).pipeline())) {
                return new Send(List.of()); // another pipeline's trigger, signed with its own key
            }
            log.warn("capture {}: ignored a logical decoding message with prefix {} at source offset {} that this pipeline's event "
                    + "trigger did not sign (written by another session: it is not applied)",
                    config.name(), DdlTrigger.PREFIX, record.sourceOffset());
            return new Send(List.of());
        }
        DdlMessage m = DdlMessage.parse(json.get());
        TableId table = m.before().table();
        if (!m.pipeline().equals(config.name()) || !config.source().tables().contains(table)) {
            return new Send(List.of()); // another pipeline's trigger
        }
        SchemaChangeDecision.Outcome outcome = SchemaChangeDecision.decide(m, configLabel);
        if (outcome instanceof SchemaChangeDecision.Stop s) {
            if (!s.snapshotRecovers() || !snapshotRequestedAfter(config, slots, table, record)) {
                return new Stop(s.line());
            }
            log.info("capture {}: a snapshot of {} was requested after its schema change at {}: the change is followed, later rows "
                    + "carry the new values and the snapshot rewrites every existing row", config.name(), table, record.sourceOffset());
            outcome = SchemaChangeDecision.decide(m, configLabel, true);
        }
        SchemaChangeDecision.Follow f = (SchemaChangeDecision.Follow) outcome;
        f.notes().forEach(n -> log.info("capture {}: schema change followed: {}", config.name(), n));
        if (f.changes().isEmpty()) {
            return new Send(List.of());
        }
        ChangeEvent.SchemaChange change = new ChangeEvent.SchemaChange(table, position(record), f.changes(), m.tag());
        log.info("capture {}: schema change of {} at {} sent to the sink: {}", config.name(), table, change.position().encode(), f.changes());
        byte[] value = encoder.schemaChange(change, System.currentTimeMillis());
        String topic = config.topicFor(table);
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (int p = 0; p < config.kafka().partitions(); p++) {
            out.add(new ProducerRecord<>(topic, p, null, value));
        }
        return new Send(out);
    }

    /** Whether the signal table holds a snapshot request of {@code table} made after the message {@code record}. */
    static boolean snapshotRequestedAfter(PipelineConfig config, SourceSlots slots, TableId table, SourceRecord record) {
        Object lsn = ((Struct) record.value()).getStruct("source").get("lsn");
        if (!(lsn instanceof Number n)) {
            return false;
        }
        try (Connection c = slots.connect()) {
            return SnapshotSignals.exists(c, config.source()) && SnapshotSignals.requestedAfter(c, config.source(), table, n.longValue());
        } catch (SQLException e) {
            throw new IllegalStateException("capture " + config.name() + ": cannot read the signal table "
                    + SnapshotSignals.table(config.source()) + " on the source: " + e.getMessage(), e);
        }
    }

    /**
     * Whether an unverified message names {@code pipeline} (read by {@code pipelineOf} after its signature, or without
     * one): it is then a forgery or damaged, and worth a warning.
     */
    static boolean namesPipeline(byte[] content, String pipeline, java.util.function.Function<byte[], String> pipelineOf) {
        for (int skip : new int[] {32, 0}) {
            try {
                if (content.length >= skip && pipelineOf.apply(java.util.Arrays.copyOfRange(content, skip, content.length)).equals(pipeline)) {
                    return true;
                }
            } catch (IllegalArgumentException e) {
                // not that layout
            }
        }
        return false;
    }

    /** The content of a {@link DdlTrigger} message, or empty for any other record. */
    static Optional<byte[]> ddlContent(SourceRecord record) {
        return messageContent(record, DdlTrigger.PREFIX);
    }

    /** The content of a logical decoding message with {@code prefix}, or empty for any other record. */
    static Optional<byte[]> messageContent(SourceRecord record, String prefix) {
        if (!(record.value() instanceof Struct v) || v.schema().field("message") == null || v.get("message") == null) {
            return Optional.empty();
        }
        Struct message = v.getStruct("message");
        if (!prefix.equals(message.getString("prefix"))) {
            return Optional.empty();
        }
        Object content = message.get("content");
        if (content instanceof byte[] b) {
            return Optional.of(b);
        }
        if (content instanceof ByteBuffer bb) {
            byte[] b = new byte[bb.remaining()];
            bb.duplicate().get(b);
            return Optional.of(b);
        }
        return Optional.of(String.valueOf(content).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The message's position, read from its {@code source} as a change event's would be. */
    static SourcePosition position(SourceRecord record) {
        Struct source = ((Struct) record.value()).getStruct("source");
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        for (Field f : source.schema().fields()) {
            Object v = source.get(f);
            if (v == null) {
                continue;
            }
            if (f.schema().type() == Schema.Type.INT64 || f.schema().type() == Schema.Type.INT32) {
                node.put(f.name(), ((Number) v).longValue());
            } else {
                node.put(f.name(), v.toString());
            }
        }
        return EnvelopeDecoder.position(node);
    }
}
