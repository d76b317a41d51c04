package dev.tidemark.connector.debezium;

import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The event capture sends when a table's incremental snapshot ended: a truncate envelope ({@code op} {@code t}) at the
 * position the snapshot began, marked {@code source.tidemark = "snapshot-sweep"}. The sink applies it whether or not
 * truncates are enabled: it removes the table's rows older than that position (rows the snapshot no longer holds) and
 * drops later-arriving changes older than it, exactly as a truncate at that position would; every row the snapshot read
 * and every change streamed since it began is newer and stays.
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
     * The envelope's value for {@code table} at {@code begin}: {@code lsn} and {@code sequence} such that the sink's
     * decoder derives exactly {@code begin} ({@code [lsn_commit, lsn]}; a null commit for a {@code FIRST} position).
     */
    static Struct value(TableId table, SourcePosition.Wal begin) {
        String commit = begin.phase() == SourcePosition.Phase.FIRST ? "null" : "\"" + Long.toUnsignedString(begin.order()) + "\"";
        Struct source = new Struct(SOURCE).put("schema", table.schema()).put("table", table.table()).put("lsn", begin.change())
                .put("sequence", "[" + commit + ",\"" + Long.toUnsignedString(begin.change()) + "\"]")
                .put("snapshot", "false").put("tidemark", MARK);
        return new Struct(VALUE).put("op", "t").put("source", source);
    }
}
