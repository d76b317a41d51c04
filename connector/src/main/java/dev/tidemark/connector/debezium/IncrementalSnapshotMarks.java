package dev.tidemark.connector.debezium;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Follows Debezium's incremental snapshots through the records capture delivers and says when one table's snapshot
 * ended, with the position it began at, so that capture can send the sink a sweep: "remove this table's rows older
 * than the beginning" (rows the snapshot no longer holds; every row it read, and every change streamed since it
 * began, is newer).
 *
 * <p>Begin: the {@code execute-snapshot} signal record naming the table (its position precedes every chunk's open
 * watermark, so every row the snapshot reads and every change streamed after it sorts after it); if no signal record
 * was seen (a snapshot resumed after a restart without the state), the first record whose source offset lists the
 * table in {@code incremental_snapshot_collections}. End: the first later record whose offset no longer lists it
 * (Debezium lists every table still to be snapshotted in every streamed record's offset; an empty table ends at
 * once). A record positioned before the beginning (a restart that resumes before the signal replays it) and an offset
 * marked as a snapshot's without the snapshots' state ({@link #isSnapshotsOwnWithoutState}) end nothing. A table
 * listed again without a signal after its snapshot ended in this run keeps that snapshot's beginning: it is the same
 * snapshot read on (an earlier beginning only lets its sweep remove fewer rows; a later one would remove rows it
 * read).
 *
 * <p>Position of a record: Debezium's ordering, {@code (lsn_commit, STREAM, lsn)} of its offset, as the sink's decoder
 * derives it from the envelope's {@code sequence}. Pure and not thread-safe (the engine's one consumer thread).
 */
final class IncrementalSnapshotMarks {
    static final String COLLECTIONS = "incremental_snapshot_collections";
    static final String COLLECTION_ID = "incremental_snapshot_collections_id";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A table whose incremental snapshot ended, and the position it began at. */
    record Ended(TableId table, SourcePosition.Wal begin) {
    }

    private final Collection<TableId> captured;
    private final Map<TableId, SourcePosition.Wal> running;
    /** The beginning of each snapshot that ended in this run, until a signal asks for the table again. */
    private final Map<TableId, SourcePosition.Wal> endedBegins = new HashMap<>();

    /**
     * @param captured the pipeline's tables (others are ignored)
     * @param running  snapshots begun and not yet ended, as stored ({@link IncrementalSnapshotFile})
     */
    IncrementalSnapshotMarks(Collection<TableId> captured, Map<TableId, SourcePosition.Wal> running) {
        this.captured = List.copyOf(captured);
        this.running = new LinkedHashMap<>(running);
    }

    /** The snapshots begun and not yet ended, with their beginning. */
    Map<TableId, SourcePosition.Wal> running() {
        return Map.copyOf(running);
    }

    /**
     * Observes one record in delivery order.
     *
     * @param offset    the record's source offset (null: nothing to learn)
     * @param position  the record's position as the sink derives it from its envelope's {@code source} block
     *                  ({@link #position(org.apache.kafka.connect.source.SourceRecord)}), or null for a record without
     *                  one (then its offset's)
     * @param requested the tables an {@code execute-snapshot} signal in this record asks for (empty for other records)
     * @return the tables whose snapshot ended before this record
     */
    List<Ended> observe(Map<String, ?> offset, SourcePosition.Wal position, Collection<TableId> requested) {
        if (offset == null || isSnapshotsOwnWithoutState(offset)) {
            return List.of();
        }
        SourcePosition.Wal at = position != null ? position : position(offset);
        Set<TableId> listed = listed(offset);
        List<Ended> ended = new ArrayList<>();
        for (var it = running.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            boolean beforeBegin = at != null && at.compareTo(e.getValue()) < 0;
            if (!listed.contains(e.getKey()) && !requested.contains(e.getKey()) && !beforeBegin) {
                ended.add(new Ended(e.getKey(), e.getValue()));
                endedBegins.put(e.getKey(), e.getValue());
                it.remove();
            }
        }
        if (at != null) {
            for (TableId t : requested) {
                if (captured.contains(t)) {
                    endedBegins.remove(t);
                    running.putIfAbsent(t, at);
                }
            }
            for (TableId t : listed) {
                if (!running.containsKey(t)) {
                    SourcePosition.Wal earlier = endedBegins.remove(t);
                    running.put(t, earlier != null ? earlier : at);
                }
            }
        }
        return ended;
    }

    /**
     * True for an offset Debezium marks as a snapshot's ({@code snapshot} set) that leaves out the incremental
     * snapshots' state: it says nothing of which are still running ({@link IncrementalSnapshotOffsets} says when
     * Debezium writes one).
     */
    static boolean isSnapshotsOwnWithoutState(Map<String, ?> offset) {
        Object snapshot = offset.get("snapshot");
        return snapshot != null && !"false".equalsIgnoreCase(snapshot.toString()) && !offset.containsKey(COLLECTIONS);
    }

    /** The captured tables an offset lists as still to be snapshotted incrementally. */
    Set<TableId> listed(Map<String, ?> offset) {
        Object json = offset.get(COLLECTIONS);
        if (json == null) {
            return Set.of();
        }
        Set<TableId> out = new HashSet<>();
        try {
            for (JsonNode c : JSON.readTree(json.toString())) {
                String id = c.path(COLLECTION_ID).asText("");
                for (TableId t : captured) {
                    if (id.equals(t.schema() + "." + t.table())) {
                        out.add(t);
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + COLLECTIONS + " of a source offset: " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * A record's position exactly as the sink's decoder derives it from the envelope's {@code source} block: an initial
     * snapshot's row at the snapshot's {@code lsn}; a streamed change's {@code lsn} ordered by the first element of
     * {@code sequence} (the commit decoded before it; {@link SourcePosition.Phase#FIRST} when there is none); null
     * for a record without such a block.
     */
    static SourcePosition.Wal position(org.apache.kafka.connect.source.SourceRecord record) {
        if (!(record.value() instanceof org.apache.kafka.connect.data.Struct value) || value.schema().field("source") == null
                || !(value.get("source") instanceof org.apache.kafka.connect.data.Struct source)
                || source.schema().field("lsn") == null || source.schema().field("sequence") == null
                || !(source.get("lsn") instanceof Long lsn) || !(source.get("sequence") instanceof String sequence)) {
            return null;
        }
        if (source.schema().field("snapshot") != null && source.get("snapshot") != null
                && InitialSnapshotSweep.isSnapshotRow(source.get("snapshot").toString())) {
            return new SourcePosition.Wal(lsn, SourcePosition.Phase.SNAPSHOT, 0);
        }
        try {
            JsonNode first = JSON.readTree(sequence).path(0);
            if (first.isMissingNode() || first.isNull()) {
                return new SourcePosition.Wal(0, SourcePosition.Phase.FIRST, lsn);
            }
            return new SourcePosition.Wal(Long.parseUnsignedLong(first.asText()), SourcePosition.Phase.STREAM, lsn);
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }

    /** The ordering position of a record's offset, or null when it names no LSN. */
    static SourcePosition.Wal position(Map<String, ?> offset) {
        if (!(offset.get("lsn") instanceof Number lsn)) {
            return null;
        }
        return offset.get("lsn_commit") instanceof Number commit
                ? new SourcePosition.Wal(commit.longValue(), SourcePosition.Phase.STREAM, lsn.longValue())
                : new SourcePosition.Wal(0, SourcePosition.Phase.FIRST, lsn.longValue());
    }
}
