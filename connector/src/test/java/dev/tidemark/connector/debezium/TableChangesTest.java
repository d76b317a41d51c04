package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableChangesTest {
    static final TableId A = new TableId("public", "a");
    static final TableId B = new TableId("public", "b");
    static final TableId C = new TableId("public", "c");

    static Map<TableId, Long> of(Object... pairs) {
        Map<TableId, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((TableId) pairs[i], ((Number) pairs[i + 1]).longValue());
        }
        return m;
    }

    @Test
    void addedRemovedAndRecreatedTablesAreToldApart() {
        TableChanges c = TableChanges.between(of(A, 1, B, 2), of(B, 5, C, 3));
        assertThat(c.added()).containsExactly(C);
        assertThat(c.removed()).containsExactly(A);
        assertThat(c.recreated()).containsExactly(new TableChanges.Recreated(B, 2, 5));
        assertThat(c.toSnapshot()).containsExactly(C, B);
        assertThat(c.none()).isFalse();
    }

    @Test
    void theSameTablesUnderTheSameRelationsAreNoChange() {
        TableChanges c = TableChanges.between(of(A, 1, B, 2), of(A, 1, B, 2));
        assertThat(c.none()).isTrue();
        assertThat(c.toSnapshot()).isEmpty();
    }

    @Test
    void theSignalNamesEachTableAsALiteralRegexAndIsReadBack() {
        TableId odd = new TableId("public", "a.b$c");
        String data = SnapshotSignals.data(List.of(A, odd));
        assertThat(data).isEqualTo("{\"data-collections\": [\"public\\\\.a\", \"public\\\\.a\\\\.b\\\\$c\"], \"type\": \"incremental\"}");
        assertThat(SnapshotRequests.requested(data, List.of(A, B, odd))).containsExactly(A, odd);
    }

    @Test
    void aRelationThatChangedWhileRunningGivesOneLineNamingTableAndCommand() {
        var line = RelationWatcher.recreated(of(A, 1, B, 2), of(A, 1, B, 9), "p.yaml");
        assertThat(line).hasValueSatisfying(l -> assertThat(l).contains("table public.b was dropped and re-created")
                .contains("relation 2, now 9").contains("`tidemark run --config p.yaml`").doesNotContain("\n"));
        assertThat(RelationWatcher.recreated(of(A, 1), of(), "p.yaml")).isEmpty();
    }
}
