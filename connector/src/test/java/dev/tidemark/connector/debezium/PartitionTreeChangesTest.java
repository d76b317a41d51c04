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
    void aMemberThatLeftStopsNamingTheSnapshotOfTheRoot() {
        var stop = PartitionTreeChanges.stop(ROOT, List.of(R, P1, P2), List.of(R, P2), Set.of(), "p.yaml").orElseThrow();
        assertThat(stop.line()).isEqualTo("capture stopped: partition public.m_1 left captured table public.m while capture ran "
                + "(detached or dropped), and the target still holds the rows it took along: run `tidemark snapshot --config p.yaml "
                + "--table public.m` (it reads public.m again and removes the rows the source no longer holds)");
        assertThat(stop.recoveredBy(true)).as("a snapshot requested after the stored position").isTrue();
        assertThat(stop.recoveredBy(false)).as("no snapshot requested: stop again").isFalse();
    }

    @Test
    void anAddedLeafWithOlderRowsStopsNamingTheSnapshotOfTheRoot() {
        var stop = PartitionTreeChanges.stop(ROOT, List.of(R, P1), List.of(R, P1, P2), Set.of(3L), null).orElseThrow();
        assertThat(stop.line()).isEqualTo("capture stopped: table public.m_2 was attached to captured table public.m while capture "
                + "ran, with rows capture never saw: run `tidemark snapshot --config FILE --table public.m` (it reads public.m "
                + "again, the attached rows with it)");
        assertThat(stop.recoveredBy(true)).isTrue();
    }

    @Test
    void anAddedUnloggedLeafStopsAndASnapshotAloneDoesNotRecoverIt() {
        PartitionedTables.Member unlogged = new PartitionedTables.Member(4, new TableId("public", "m_u"), true, 'd', true);
        var stop = PartitionTreeChanges.stop(ROOT, List.of(R, P1), List.of(R, P1, unlogged), Set.of(), "p.yaml").orElseThrow();
        assertThat(stop.line()).startsWith("capture stopped: partition public.m_u of captured table public.m is UNLOGGED")
                .contains("ALTER TABLE \"public\".\"m_u\" SET LOGGED, then `tidemark snapshot --config p.yaml --table public.m`");
        assertThat(stop.recoveredBy(true)).as("still unlogged: its changes are still not in the WAL").isFalse();
    }

    @Test
    void aRootThatIsGoneIsNotJudgedHere() {
        assertThat(PartitionTreeChanges.stop(ROOT, List.of(R, P1), List.of(), Set.of(), "p.yaml")).isEmpty();
    }
}
