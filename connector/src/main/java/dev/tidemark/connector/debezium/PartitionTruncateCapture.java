package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What capture does with the messages of {@link PartitionTruncateTrigger}: each signed one is decided by {@link
 * PartitionTruncate} (stop with one line, follow the snapshot requested after it, or not this pipeline's); an unsigned one
 * naming this pipeline is logged once as a WARN and not applied. Every change event passes through {@link RootTruncates}
 * so that a {@code TRUNCATE} of the root itself (published as such) does not stop capture. Not thread-safe: capture's
 * consumer thread owns it.
 */
final class PartitionTruncateCapture {
    private static final Logger log = LoggerFactory.getLogger(PartitionTruncateCapture.class);

    private final PipelineConfig config;
    private final String configLabel;
    private final SourceSlots slots;
    /** The key of the signatures (event-trigger mode), else null: then no message is Tidemark's. */
    private final String key;
    private final RootTruncates roots = new RootTruncates();

    PartitionTruncateCapture(PipelineConfig config, String configLabel, SourceSlots slots, String key) {
        this.config = config;
        this.configLabel = configLabel;
        this.slots = slots;
        this.key = key;
    }

    /** What to do with {@code record} when it is a truncate message; empty for any other record (noted when a change). */
    Optional<SchemaChangeCapture.Handling> handle(SourceRecord record) {
        Optional<byte[]> content = SchemaChangeCapture.messageContent(record, PartitionTruncateTrigger.PREFIX);
        if (content.isEmpty()) {
            observe(record);
            return Optional.empty();
        }
        Optional<byte[]> json = DdlSignature.verify(key, content.get());
        if (json.isEmpty()) {
            if (SchemaChangeCapture.namesPipeline(content.get(), config.name(), b -> PartitionTruncate.Message.parse(b).pipeline())) {
                log.warn("capture {}: ignored a logical decoding message with prefix {} at source offset {} that this pipeline's "
                        + "truncate trigger did not sign (written by another session: it is not applied)",
                        config.name(), PartitionTruncateTrigger.PREFIX, record.sourceOffset());
            }
            return Optional.of(new SchemaChangeCapture.Send(List.of()));
        }
        PartitionTruncate.Message m = PartitionTruncate.Message.parse(json.get());
        Long txId = txId(record);
        PartitionTruncate.Outcome outcome = PartitionTruncate.decide(m, config.name(), config.source().tables(),
                roots.covers(m.root(), txId), () -> SchemaChangeCapture.snapshotRequestedAfter(config, slots, m.root(), record), configLabel);
        if (outcome instanceof PartitionTruncate.Stop s) {
            return Optional.of(new SchemaChangeCapture.Stop(s.line()));
        }
        if (outcome instanceof PartitionTruncate.Follow f) {
            log.info("capture {}: {}", config.name(), f.note());
        }
        return Optional.of(new SchemaChangeCapture.Send(List.of()));
    }

    private void observe(SourceRecord record) {
        if (!(record.value() instanceof Struct v) || v.schema().field("op") == null || v.schema().field("source") == null) {
            return;
        }
        String op = v.getString("op");
        Struct source = v.getStruct("source");
        if (op == null || source == null || source.schema().field("table") == null || "m".equals(op)) {
            return;
        }
        roots.observe(new TableId(source.getString("schema"), source.getString("table")), op, txId(record));
    }

    private static Long txId(SourceRecord record) {
        Struct source = ((Struct) record.value()).getStruct("source");
        Object tx = source == null || source.schema().field("txId") == null ? null : source.get("txId");
        return tx instanceof Number n ? n.longValue() : null;
    }
}
