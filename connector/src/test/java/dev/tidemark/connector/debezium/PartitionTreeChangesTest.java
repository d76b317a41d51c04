package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PartitionTreeChangesTest {
    static final TableId ROOT = new TableId("public", "m");
    static final PartitionedTables.Member R = new PartitionedTables.Member(1, ROOT, false, 'f', false);
    static final PartitionedTables.Member P1 = new PartitionedTables.Member(2, new TableId("public", "m_1"), true, 'f', false);
    static final PartitionedTables.Member P2 = new PartitionedTables.Member(3, new TableId("public", "m_2"), true, 'd', false);

    @Test
    void anUnchangedTreeOrACreatedEmptyPartitionIsFollowed() {
        assertThat(PartitionTreeChanges.stop(ROOT, List.of(R, P1), List.of(R, P1), Set.of(), "p.yaml")).isEmpty();
        assertThat(PartitionTreeChanges.stop(ROOT, List.of(R, P1), List.of(R, P1, P2), Set.of(), "p.yaml")).isEmpty();
        assertThat(PartitionTreeChanges.added(List.of(R, P1), List.of(R, P1, P2))).containsExactly(P2);
    }

    @Test
    void aMemberThatLeftStopsNamingItAndTheRepairWithForce() {
        assertThat(PartitionTreeChanges.stop(ROOT, List.of(R, P1, P2), List.of(R, P2), Set.of(), "p.yaml")).hasValue(
                "capture stopped: partition public.m_1 left captured table public.m while capture ran (detached or dropped), and "
                        + "the target still holds the rows it took along: run `tidemark reconcile --config p.yaml --repair --apply "
                        + "--force` to delete them there (--force: they may be more than a tenth of the table), then start capture again");
    }

    @Test
    void anAddedLeafWithOlderRowsStopsNamingTheRepair() {
        assertThat(PartitionTreeChanges.stop(ROOT, List.of(R, P1), List.of(R, P1, P2), Set.of(3L), null)).hasValue(
                "capture stopped: table public.m_2 was attached to captured table public.m while capture ran, with rows capture "
                        + "never saw: run `tidemark reconcile --config FILE --repair --apply` to copy them to the target, then start "
                        + "capture again");
    }

    @Test
    void anAddedUnloggedLeafStops() {
        PartitionedTables.Member unlogged = new PartitionedTables.Member(4, new TableId("public", "m_u"), true, 'd', true);
        assertThat(PartitionTreeChanges.stop(ROOT, List.of(R, P1), List.of(R, P1, unlogged), Set.of(), "p.yaml").orElseThrow())
                .startsWith("capture stopped: partition public.m_u of captured table public.m is UNLOGGED")
                .contains("ALTER TABLE \"public\".\"m_u\" SET LOGGED");
    }

    @Test
    void aRootThatIsGoneIsNotJudgedHere() {
        assertThat(PartitionTreeChanges.stop(ROOT, List.of(R, P1), List.of(), Set.of(), "p.yaml")).isEmpty();
    }
}
