package dev.tidemark.connector.debezium;

import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The event capture sends when a table's snapshot ended (incremental, or the initial one of a first start or
 * {@code --resnapshot}): a truncate envelope ({@code op} {@code t}) at the position the snapshot began, marked
 * {@code source.tidemark = "snapshot-sweep"}; a control record, not counted as a change. The sink applies it whether or
 * not truncates are enabled: it removes the rows it wrote with a position older than that (rows the snapshot no longer
 * holds) and drops later-arriving changes older than it; every row the snapshot read and every change streamed since it
 * began is newer and stays, and so does a row without a position (the sink never wrote it from the source).
 */
final class SnapshotSweep {
    static final String MARK = "snapshot-sweep";
    private static final Schema SOURCE = SchemaBuilder.struct().name("dev.tidemark.Source")
            .field("schema", Schema.STRING_SCHEMA).field("table", Schema.STRING_SCHEMA)
            .field("lsn", Schema.INT64_SCHEMA).field("sequence", Schema.STRING_SCHEMA)
            .field("snapshot", Schema.STRING_SCHEMA).field("tidemark", Schema.STRING_SCHEMA).build();
    private static final Schema VALUE = SchemaBuilder.struct().name("dev.tidemark.SnapshotSweep")
            .field("op", Schema.STRING_SCHEMA).field("source", SOURCE).build();

    private SnapshotSweep() {
    }

    /** The envelope's schema. */
    static Schema schema() {
        return VALUE;
    }

    /**
     * The envelope's value for {@code table} at {@code begin}, with {@code lsn}, {@code sequence} and {@code snapshot}
     * such that the sink's decoder derives exactly {@code begin}: a {@link SourcePosition.Phase#SNAPSHOT} position as a
     * snapshot row's ({@code snapshot = "true"}, {@code lsn} = the snapshot's LSN), a streamed one as
     * {@code [lsn_commit, lsn]} (a null commit for {@link SourcePosition.Phase#FIRST}).
     */
    static Struct value(TableId table, SourcePosition.Wal begin) {
        boolean snapshot = begin.phase() == SourcePosition.Phase.SNAPSHOT;
        long lsn = snapshot ? begin.order() : begin.change();
        String commit = begin.phase() == SourcePosition.Phase.STREAM ? "\"" + Long.toUnsignedString(begin.order()) + "\"" : "null";
        Struct source = new Struct(SOURCE).put("schema", table.schema()).put("table", table.table()).put("lsn", lsn)
                .put("sequence", "[" + commit + ",\"" + Long.toUnsignedString(lsn) + "\"]")
                .put("snapshot", snapshot ? "true" : "false").put("tidemark", MARK);
        return new Struct(VALUE).put("op", "t").put("source", source);
    }
}
