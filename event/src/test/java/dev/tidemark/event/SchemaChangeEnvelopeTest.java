package dev.tidemark.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchemaChangeEnvelopeTest {
    private static final TableId T = new TableId("public", "items");
    private static final EventOrigin ORIGIN = new EventOrigin("tm.public.items", 1, 42L, null);

    @Test
    void aSchemaChangeDecodesToTheSameChangeAtTheSamePosition() {
        ChangeEvent.SchemaChange change = new ChangeEvent.SchemaChange(T, new SourcePosition.Wal(100, SourcePosition.Phase.STREAM, 120),
                List.of(new ChangeEvent.ColumnChange.Added("c3", new ColumnType("int32", null, Map.of(ColumnType.SOURCE_TYPE, "INT4")), "5"),
                        new ChangeEvent.ColumnChange.Renamed("k", "k2"), new ChangeEvent.ColumnChange.Dropped("old"),
                        new ChangeEvent.ColumnChange.Retyped("n", "integer", "numeric(12,2)")), "ALTER TABLE");
        byte[] value = new EnvelopeEncoder("tm", "postgresql", "db").schemaChange(change, 1L);

        ChangeEvent decoded = new EnvelopeDecoder().decode(ORIGIN, null, value);

        assertThat(decoded).isEqualTo(change);
    }

    @Test
    void anUnknownKindOfColumnChangeIsRefusedNamingTheRecord() {
        ChangeEvent.SchemaChange change = new ChangeEvent.SchemaChange(T, new SourcePosition.Lsn(7), List.of(), "ALTER TABLE");
        String value = new String(new EnvelopeEncoder("tm", "postgresql", "db").schemaChange(change, 1L), StandardCharsets.UTF_8)
                .replace("\\\"changes\\\":[]", "\\\"changes\\\":[{\\\"kind\\\":\\\"widened\\\"}]");

        assertThatThrownBy(() -> new EnvelopeDecoder().decode(ORIGIN, null, value.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(PoisonEventException.class).hasMessageContaining("unknown kind 'widened'");
    }
}
