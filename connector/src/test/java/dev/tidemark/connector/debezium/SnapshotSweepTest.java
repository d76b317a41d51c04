package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeDecoder;
import dev.tidemark.event.EventOrigin;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class SnapshotSweepTest {
    static final TableId T = new TableId("public", "orders");

    @Test
    void theSinkDecodesASweepAtExactlyThePositionTheSnapshotBegan() {
        for (SourcePosition.Wal begin : List.of(new SourcePosition.Wal(0x1964378L, SourcePosition.Phase.STREAM, 0x1964530L),
                new SourcePosition.Wal(0, SourcePosition.Phase.FIRST, 77), new SourcePosition.Wal(0x223fbd0L, SourcePosition.Phase.SNAPSHOT, 0))) {
            byte[] value = new ConnectJsonWriter().write(SnapshotSweep.schema(), SnapshotSweep.value(T, begin));
            ChangeEvent e = new EnvelopeDecoder().decode(new EventOrigin("p.public.orders", 0, 1, null), null, value);
            assertThat(e).isEqualTo(new ChangeEvent.Truncate(T, begin, true));
        }
    }

    @Test
    void aSourceTruncateIsNoSweep() {
        Struct source = SnapshotSweep.value(T, new SourcePosition.Wal(1, SourcePosition.Phase.STREAM, 2)).getStruct("source").put("tidemark", "");
        Struct value = new Struct(SnapshotSweep.schema()).put("op", "t").put("source", source);
        ChangeEvent e = new EnvelopeDecoder().decode(new EventOrigin("p.public.orders", 0, 1, null), null,
                new ConnectJsonWriter().write(SnapshotSweep.schema(), value));
        assertThat(((ChangeEvent.Truncate) e).sweep()).isFalse();
    }

    @Test
    void anIncrementalSnapshotRowWithoutAPositionIsStampedAndPositionedLikeTheSinkDecodesIt() {
        Schema sourceSchema = SchemaBuilder.struct().field("snapshot", Schema.OPTIONAL_STRING_SCHEMA)
                .field("lsn", Schema.OPTIONAL_INT64_SCHEMA).field("sequence", Schema.OPTIONAL_STRING_SCHEMA).build();
        Schema valueSchema = SchemaBuilder.struct().field("source", sourceSchema).build();
        Struct row = new Struct(valueSchema).put("source", new Struct(sourceSchema).put("snapshot", "incremental"));
        SourceRecord record = new SourceRecord(null, null, "p.public.orders", valueSchema, row);
        assertThat(IncrementalRows.isIncremental(record)).isTrue();
        assertThat(IncrementalSnapshotMarks.position(record)).isNull();
        SourcePosition.Wal at = new SourcePosition.Wal(500, SourcePosition.Phase.STREAM, 640);
        assertThat(IncrementalRows.stamp(record, at)).isTrue();
        assertThat(IncrementalSnapshotMarks.position(record)).isEqualTo(at);
        assertThat(IncrementalRows.stamp(record, new SourcePosition.Wal(900, SourcePosition.Phase.STREAM, 901))).as("stamped once").isFalse();
    }
}
