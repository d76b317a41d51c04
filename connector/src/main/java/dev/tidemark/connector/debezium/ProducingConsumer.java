package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.KafkaFailure;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The engine's consumer. Each batch: every record is converted once and sent ({@link CaptureSender}), the producer
 * flushed, every acknowledgement awaited in order, the furthest acknowledged position stored ({@link DeliveredPosition}),
 * and only then each acknowledged record marked processed, with the offset {@link ResumeSafeOffsets} says is safe to
 * resume from. Tidemark's position markers and heartbeats, Debezium's heartbeats and the signal table's rows are
 * marked processed without being sent. A schema change or a key capture cannot follow stops capture: the records
 * before it are sent and marked, none from it on ({@code onStop} hears why; later batches are ignored). A record Kafka
 * did not acknowledge fails the batch. Runs on the engine's thread only.
 */
final class ProducingConsumer implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {
    private final PipelineConfig config;
    private final CaptureSender sender;
    private final CaptureCounts counts;
    private final SchemaChangeCapture schemaChanges;
    private final CapturedKeys keys;
    private final CaptureMetrics metrics;
    private final Consumer<RuntimeException> onStop;
    private final DeliveredPosition delivered;
    private final ResumeSafeOffsets resumeSafe = new ResumeSafeOffsets();
    private final SnapshotFlow snapshots;
    /** Set when a change capture cannot follow stopped it; read by any thread. */
    private volatile boolean stopped;

    /** The records of a batch as sent: per record its {@link CaptureSender.Sent}, or null when it was not sent. */
    private record Routed(List<CaptureSender.Sent> sent, List<Future<RecordMetadata>> sweeps, RuntimeException stop) {
    }

    /** How many records of a batch Kafka acknowledged in order, the furthest position among them, and why it ended. */
    private record Acked(int count, Lsn furthest, RuntimeException failed) {
    }

    /**
     * @param snapshotSweeps whether this start's initial snapshot ends with a sweep ({@link InitialSnapshotSweep})
     * @param onStop         told once when a change capture cannot follow stops capture
     */
    ProducingConsumer(PipelineConfig config, CaptureSender sender, CaptureCounts counts, SchemaChangeCapture schemaChanges,
                      CapturedKeys keys, CaptureMetrics metrics, boolean snapshotSweeps, Consumer<RuntimeException> onStop) {
        this.config = config;
        this.sender = sender;
        this.counts = counts;
        this.schemaChanges = schemaChanges;
        this.keys = keys;
        this.metrics = metrics;
        this.onStop = onStop;
        this.delivered = new DeliveredPosition(config.offsetsFile());
        this.snapshots = new SnapshotFlow(config, snapshotSweeps);
    }

    /** True once a change capture cannot follow stopped it: every record before it was sent and acknowledged. */
    boolean stoppedOnAChange() {
        return stopped;
    }

    @Override
    public void handleBatch(List<RecordChangeEvent<SourceRecord>> records,
                            DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer) throws InterruptedException {
        if (stopped) {
            return; // a schema change stopped capture: nothing from it on is marked processed
        }
        Routed routed = route(records);
        // the batch is complete: send what the producer still holds now instead of after linger.ms
        sender.flush();
        awaitSweeps(routed.sweeps());
        endSnapshots();
        // await every acknowledgement in order, store how far Kafka has the records, only then mark them processed
        Acked acked = awaitAcks(records, routed.sent());
        storeDelivered(acked.furthest());
        markAcked(records, routed.sent(), acked.count(), committer);
        if (acked.failed() != null) {
            throw acked.failed();
        }
        if (routed.stop() != null) {
            stopped = true;
            onStop.accept(routed.stop());
        }
        committer.markBatchFinished();
    }

    /** Sends the records of the batch up to the first one that stops capture (that one is not sent). */
    private Routed route(List<RecordChangeEvent<SourceRecord>> records) throws InterruptedException {
        List<CaptureSender.Sent> sent = new ArrayList<>(records.size());
        List<Future<RecordMetadata>> sweeps = new ArrayList<>();
        snapshots.beginBatch();
        for (RecordChangeEvent<SourceRecord> r : records) {
            SourceRecord sr = r.record();
            SchemaChangeCapture.Handling schema = schemaChanges.handle(sr);
            if (schema instanceof SchemaChangeCapture.Stop s) {
                return new Routed(sent, sweeps, new IllegalStateException(s.line()));
            }
            if (schema instanceof SchemaChangeCapture.Send s) {
                sender.sendNow(s.records()); // a schema change goes to every partition, ahead of the rows after it
                sent.add(null);
                continue;
            }
            for (IncrementalSnapshotMarks.Ended ended : snapshots.observe(sr)) {
                sweeps.add(sender.sendSweep(ended));
            }
            // the signal table's rows (signals, watermarks) are Debezium's; Tidemark's own position marker or heartbeat
            // message, or Debezium's heartbeat, is marked processed (so its offset is stored and the slot moves on)
            if (snapshots.isSignal(sr) || PositionMarker.isMarker(config, sr) || Heartbeats.isHeartbeat(sr)) {
                sent.add(null);
                continue;
            }
            KeyRestore.Outcome keyed = keys.restore(sr); // a row change Debezium sent without its key gets it back
            if (keyed instanceof KeyRestore.Stop s) {
                return new Routed(sent, sweeps, new IllegalStateException(s.line()));
            }
            List<SourceRecord> out = ((KeyRestore.Send) keyed).records();
            sent.add(out.isEmpty() ? null : sender.send(out));
        }
        return new Routed(sent, sweeps, null);
    }

    private void awaitSweeps(List<Future<RecordMetadata>> sweeps) throws InterruptedException {
        for (Future<RecordMetadata> sweep : sweeps) {
            try {
                sweep.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("Kafka did not acknowledge a snapshot sweep: " + KafkaFailure.reason(config.kafka(), e.getCause()), e.getCause());
            }
        }
    }

    private void endSnapshots() {
        try {
            snapshots.endBatch();
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + IncrementalSnapshotFile.fileFor(config.offsetsFile()) + ": " + e.getMessage(), e);
        }
    }

    /** Awaits each record's acknowledgement in order, up to the first Kafka refused. */
    private Acked awaitAcks(List<RecordChangeEvent<SourceRecord>> records, List<CaptureSender.Sent> sent) throws InterruptedException {
        Lsn furthest = null;
        for (int i = 0; i < sent.size(); i++) {
            SourceRecord sr = records.get(i).record();
            if (sent.get(i) != null) {
                try {
                    sent.get(i).ack().get();
                } catch (ExecutionException e) {
                    return new Acked(i, furthest, notAcknowledged(sr, sent.get(i).bytes(), e.getCause()));
                }
            }
            Lsn at = sr.sourceOffset() == null ? null : OffsetsFile.position(sr.sourceOffset()).orElse(null);
            if (at != null && (furthest == null || at.isAfter(furthest))) {
                furthest = at;
            }
        }
        return new Acked(sent.size(), furthest, null);
    }

    private RuntimeException notAcknowledged(SourceRecord sr, int bytes, Throwable cause) {
        if (cause instanceof RecordTooLargeException) {
            return new IllegalStateException(CaptureFailures.tooLarge(sr.topic(), sr.key(), sr.sourceOffset(), bytes,
                    CaptureSettings.maxEventBytes(config), cause.getMessage()), cause);
        }
        return new IllegalStateException("Kafka did not acknowledge the event for topic " + sr.topic() + " at source offset "
                + sr.sourceOffset() + ": " + cause.getMessage(), cause);
    }

    private void storeDelivered(Lsn furthest) {
        if (furthest == null) {
            return;
        }
        try {
            delivered.advanceTo(furthest);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + DeliveredPosition.fileFor(config.offsetsFile()) + ": " + e.getMessage(), e);
        }
    }

    /** Marks the first {@code acked} records processed, counts those sent and reports them per table. */
    private void markAcked(List<RecordChangeEvent<SourceRecord>> records, List<CaptureSender.Sent> sent, int acked,
                           DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer) throws InterruptedException {
        List<Map<String, ?>> sourceOffsets = new ArrayList<>(acked);
        for (int i = 0; i < acked; i++) {
            sourceOffsets.add(records.get(i).record().sourceOffset());
        }
        List<Map<String, ?>> toStore = resumeSafe.plan(sourceOffsets);
        Map<String, Long> perTopic = new HashMap<>();
        for (int i = 0; i < acked; i++) {
            SourceRecord sr = records.get(i).record();
            markProcessed(committer, records.get(i), IncrementalSnapshotOffsets.resumable(toStore.get(i)));
            if (sent.get(i) != null) {
                counts.countSent();
                if (sr.value() != null) { // a tombstone follows its delete: no change of its own
                    perTopic.merge(sr.topic(), 1L, Long::sum);
                }
            }
        }
        for (TableId t : config.source().tables()) {
            Long n = perTopic.get(config.topicFor(t));
            if (n != null) {
                metrics.captured(t, n);
            }
        }
    }

    /** Marks a record processed with the offset chosen for it (null: not at all). */
    private static void markProcessed(DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer,
                                      RecordChangeEvent<SourceRecord> record, Map<String, ?> offset) throws InterruptedException {
        if (offset == null) {
            return;
        }
        if (offset == record.record().sourceOffset()) {
            committer.markProcessed(record);
            return;
        }
        DebeziumEngine.Offsets instead = committer.buildOffsets();
        offset.forEach(instead::set);
        committer.markProcessed(record, instead);
    }

    @Override
    public boolean supportsTombstoneEvents() {
        return true;
    }
}
