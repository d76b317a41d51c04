package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.SourcePosition;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class InitialSnapshotSweepTest {
    static final Schema SOURCE = SchemaBuilder.struct().field("snapshot", Schema.OPTIONAL_STRING_SCHEMA)
            .field("lsn", Schema.OPTIONAL_INT64_SCHEMA).build();
    static final Schema VALUE = SchemaBuilder.struct().field("source", SOURCE).build();

    static SourceRecord record(String snapshot, long lsn, Map<String, ?> offset) {
        return new SourceRecord(Map.of(), offset, "p.public.t", VALUE, new Struct(VALUE).put("source",
                new Struct(SOURCE).put("snapshot", snapshot).put("lsn", lsn)));
    }

    @Test
    void theSweepIsAtTheSnapshotsPositionOnceTheFirstStreamedRecordArrives() {
        InitialSnapshotSweep s = new InitialSnapshotSweep();
        assertThat(s.observe(record("first", 500, Map.of("lsn", 500L, "snapshot", "INITIAL")))).isNull();
        assertThat(s.observe(record("last", 500, Map.of("lsn", 500L, "snapshot", "INITIAL")))).isNull();
        assertThat(s.observe(record("false", 640, Map.of("lsn", 640L))))
                .isEqualTo(new SourcePosition.Wal(500, SourcePosition.Phase.SNAPSHOT, 0));
        assertThat(s.observe(record("false", 700, Map.of("lsn", 700L)))).as("once").isNull();
    }

    @Test
    void anEmptySnapshotSweepsAtTheFirstStreamedRecord() {
        InitialSnapshotSweep s = new InitialSnapshotSweep();
        assertThat(s.observe(record("false", 640, Map.of("lsn", 640L))))
                .isEqualTo(new SourcePosition.Wal(640, SourcePosition.Phase.SNAPSHOT, 0));
    }

    @Test
    void incrementalSnapshotRowsAreNoInitialSnapshotRows() {
        assertThat(InitialSnapshotSweep.isSnapshotRow("incremental")).isFalse();
        assertThat(InitialSnapshotSweep.isSnapshotRow("last_in_data_collection")).isTrue();
    }

    @Test
    void aStartThatTakesAnInitialSnapshotSweepsAndNoOtherDoes() {
        assertThat(InitialSnapshotSweep.applies(new CaptureStart.Fresh(), "initial")).as("first start").isTrue();
        assertThat(InitialSnapshotSweep.applies(new CaptureStart.Fresh(), null)).as("first start, default mode").isTrue();
        assertThat(InitialSnapshotSweep.applies(new CaptureStart.Resnapshot(true, true), "initial")).as("--resnapshot").isTrue();
        assertThat(InitialSnapshotSweep.applies(new CaptureStart.Fresh(), "no_data")).as("no snapshot: nothing re-reads the rows").isFalse();
        assertThat(InitialSnapshotSweep.applies(new CaptureStart.Resnapshot(true, true), "no_data")).isFalse();
        assertThat(InitialSnapshotSweep.applies(new CaptureStart.AcceptGap(true), "initial")).as("--accept-gap").isFalse();
        assertThat(InitialSnapshotSweep.applies(new CaptureStart.Resume(null), "initial")).as("resume").isFalse();
    }
}
