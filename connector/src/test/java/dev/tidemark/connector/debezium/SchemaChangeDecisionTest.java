package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.TableId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SchemaChangeDecisionTest {
    private static final TableId T = new TableId("public", "items");
    private static final DdlMessage.Col ID = col(1, "id", "integer", "int4", -1, null, true, null);
    private static final DdlMessage.Col K = col(2, "k", "integer", "int4", -1, null, true, null);

    private static DdlMessage.Col col(int attnum, String name, String type, String typname, int typmod, String def, boolean constant, String value) {
        return new DdlMessage.Col(attnum, name, type, typname, typmod, false, false, false, def, constant, value);
    }

    private static DdlMessage change(List<DdlMessage.Col> before, List<DdlMessage.Col> after) {
        return change(before, T, after);
    }

    private static DdlMessage change(List<DdlMessage.Col> before, TableId afterName, List<DdlMessage.Col> after) {
        return new DdlMessage("p", "ALTER TABLE", new DdlMessage.Shape(1, T, before), Optional.of(new DdlMessage.Shape(1, afterName, after)));
    }

    private static List<DdlMessage.Col> plus(DdlMessage.Col... cols) {
        List<DdlMessage.Col> out = new ArrayList<>(List.of(ID, K));
        out.addAll(List.of(cols));
        return out;
    }

    @Test
    void aColumnAddedWithAConstantDefaultCarriesTheValueExistingRowsGot() {
        var out = SchemaChangeDecision.decide(change(plus(), plus(col(3, "c3", "integer", "int4", -1, "5", true, "5"))), "p.yaml");

        assertThat(out).isInstanceOfSatisfying(SchemaChangeDecision.Follow.class, f -> {
            assertThat(f.changes()).hasSize(1);
            ChangeEvent.ColumnChange.Added a = (ChangeEvent.ColumnChange.Added) f.changes().get(0);
            assertThat(a.column()).isEqualTo("c3");
            assertThat(a.type().connectType()).isEqualTo("int32");
            assertThat(a.value()).isEqualTo("5");
        });
    }

    @Test
    void aColumnAddedWithoutADefaultIsCarriedWithoutAValue() {
        var out = SchemaChangeDecision.decide(change(plus(), plus(col(3, "c3", "integer", "int4", -1, null, true, null))), "p.yaml");

        assertThat(out).isInstanceOfSatisfying(SchemaChangeDecision.Follow.class, f -> assertThat(f.changes())
                .singleElement().isInstanceOfSatisfying(ChangeEvent.ColumnChange.Added.class, a -> assertThat(a.value()).isNull()));
    }

    @Test
    void aConstantDefaultWithoutTheRecordedValueStops() {
        var out = SchemaChangeDecision.decide(change(plus(), plus(col(3, "c3", "integer", "int4", -1, "5", true, null))), "p.yaml");

        assertThat(out).isInstanceOfSatisfying(SchemaChangeDecision.Stop.class, s -> assertThat(s.line())
                .contains("column c3 was added with DEFAULT 5, but the value the existing rows got is not recorded"));
    }

    @Test
    void aVolatileDefaultStopsNamingTableChangeAndTheSnapshotCommand() {
        var out = SchemaChangeDecision.decide(change(plus(), plus(col(3, "at", "timestamp with time zone", "timestamptz", -1, "now()", false, null))), "p.yaml");

        assertThat(out).isInstanceOfSatisfying(SchemaChangeDecision.Stop.class, s -> assertThat(s.line())
                .startsWith("capture stopped: table public.items: column at was added with DEFAULT now(), which is not a constant")
                .endsWith("`tidemark snapshot --config p.yaml --table public.items`").doesNotContain("\n"));
    }

    @Test
    void aConstantDefaultOfATypeNotCarriedStops() {
        var out = SchemaChangeDecision.decide(change(plus(), plus(col(3, "d", "date", "date", -1, "'2026-01-01'::date", true, "2026-01-01"))), null);

        assertThat(out).isInstanceOfSatisfying(SchemaChangeDecision.Stop.class, s -> assertThat(s.line())
                .contains("column d was added with DEFAULT '2026-01-01'::date of type date").endsWith("--table public.items`"));
    }

    @Test
    void aRenameIsTheSameAttributeNumberUnderANewName() {
        var out = SchemaChangeDecision.decide(change(plus(), List.of(ID, col(2, "k2", "integer", "int4", -1, null, true, null))), "p.yaml");

        assertThat(out).isEqualTo(new SchemaChangeDecision.Follow(List.of(new ChangeEvent.ColumnChange.Renamed("k", "k2")), List.of()));
    }

    @Test
    void aDropAndAnAddOfTheSameNameAreTwoAttributeNumbers() {
        var out = SchemaChangeDecision.decide(change(plus(), List.of(ID, col(3, "k", "bigint", "int8", -1, null, true, null))), "p.yaml");

        assertThat(out).isInstanceOfSatisfying(SchemaChangeDecision.Follow.class, f -> {
            assertThat(f.changes()).hasSize(2);
            assertThat(f.changes().get(0)).isEqualTo(new ChangeEvent.ColumnChange.Dropped("k"));
            assertThat(f.changes().get(1)).isInstanceOfSatisfying(ChangeEvent.ColumnChange.Added.class, a -> {
                assertThat(a.column()).isEqualTo("k");
                assertThat(a.value()).isNull();
            });
        });
    }

    @Test
    void wideningKeepsValuesNarrowingAndOtherKindsStop() {
        var widened = SchemaChangeDecision.decide(change(plus(), List.of(ID, col(2, "k", "bigint", "int8", -1, null, true, null))), "p.yaml");
        var narrowed = SchemaChangeDecision.decide(change(plus(), List.of(ID, col(2, "k", "smallint", "int2", -1, null, true, null))), "p.yaml");
        var toNumeric = SchemaChangeDecision.decide(change(plus(), List.of(ID, col(2, "k", "numeric(12,2)", "numeric", (12 << 16 | 2) + 4, null, true, null))), "p.yaml");

        assertThat(widened).isInstanceOfSatisfying(SchemaChangeDecision.Follow.class, f -> assertThat(f.changes()).isEmpty());
        assertThat(narrowed).isInstanceOfSatisfying(SchemaChangeDecision.Stop.class, s -> assertThat(s.line())
                .contains("column k changed type from integer to smallint"));
        assertThat(toNumeric).isInstanceOf(SchemaChangeDecision.Stop.class);
    }

    @Test
    void textAndVarcharKeepValuesBothWays() {
        DdlMessage.Col text = col(2, "s", "text", "text", -1, null, true, null);
        DdlMessage.Col varchar = col(2, "s", "character varying(20)", "varchar", 24, null, true, null);

        assertThat(SchemaChangeDecision.keepsValues(text, varchar)).isTrue();
        assertThat(SchemaChangeDecision.keepsValues(varchar, text)).isTrue();
    }

    @Test
    void aRenamedTableStopsNamingBothNames() {
        var out = SchemaChangeDecision.decide(change(plus(), new TableId("public", "items2"), plus()), "p.yaml");

        assertThat(out).isInstanceOfSatisfying(SchemaChangeDecision.Stop.class, s -> assertThat(s.line())
                .startsWith("capture stopped: table public.items was renamed to public.items2")
                .endsWith("`tidemark snapshot --config p.yaml --table public.items2`"));
    }

    @Test
    void withASnapshotRequestedAfterTheChangeAColumnWhoseValuesAreNotCarriedIsFollowedWithoutThem() {
        DdlMessage m = change(plus(), plus(col(3, "at", "timestamp with time zone", "timestamptz", -1, "now()", false, null),
                col(4, "c4", "integer", "int4", -1, "5", true, "5")));

        assertThat(SchemaChangeDecision.decide(m, "p.yaml")).isInstanceOfSatisfying(SchemaChangeDecision.Stop.class,
                s -> assertThat(s.snapshotRecovers()).isTrue());
        assertThat(SchemaChangeDecision.decide(m, "p.yaml", true)).isInstanceOfSatisfying(SchemaChangeDecision.Follow.class, f -> {
            assertThat(f.changes()).singleElement().isInstanceOfSatisfying(ChangeEvent.ColumnChange.Added.class,
                    a -> assertThat(a.column()).isEqualTo("c4"));
            assertThat(f.notes()).singleElement().asString().contains("column at added")
                    .contains("rewritten by the snapshot of public.items requested after this change");
        });
    }

    @Test
    void withASnapshotRequestedAfterTheChangeATypeChangeThatRewroteRowsIsFollowedAsRetyped() {
        DdlMessage narrowed = change(plus(), List.of(ID, col(2, "k", "smallint", "int2", -1, null, true, null)));
        DdlMessage toNumeric = change(plus(), List.of(ID, col(2, "k", "numeric(12,2)", "numeric", (12 << 16 | 2) + 4, null, true, null)));

        assertThat(SchemaChangeDecision.decide(narrowed, "p.yaml")).isInstanceOfSatisfying(SchemaChangeDecision.Stop.class,
                s -> assertThat(s.snapshotRecovers()).isTrue());
        assertThat(SchemaChangeDecision.decide(narrowed, "p.yaml", true)).isInstanceOfSatisfying(SchemaChangeDecision.Follow.class, f -> {
            assertThat(f.changes()).containsExactly(new ChangeEvent.ColumnChange.Retyped("k", "integer", "smallint"));
            assertThat(f.notes()).singleElement().asString().contains("column k changed type from integer to smallint")
                    .contains("rewritten by the snapshot of public.items requested after this change");
        });
        assertThat(SchemaChangeDecision.decide(toNumeric, "p.yaml", true)).isInstanceOfSatisfying(SchemaChangeDecision.Follow.class,
                f -> assertThat(f.changes()).containsExactly(new ChangeEvent.ColumnChange.Retyped("k", "integer", "numeric(12,2)")));
    }

    @Test
    void aRenamedTableStillStopsWithASnapshotRequested() {
        DdlMessage m = change(plus(), new TableId("public", "items2"), plus());

        assertThat(SchemaChangeDecision.decide(m, "p.yaml", true)).isInstanceOfSatisfying(SchemaChangeDecision.Stop.class,
                s -> assertThat(s.snapshotRecovers()).isFalse());
    }
}
