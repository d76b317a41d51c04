package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class CapturedTableRulesTest {
    static final TableId ROOT = new TableId("public", "m");
    static final TableId MID = new TableId("public", "m_2026");
    static final TableId LEAF = new TableId("public", "m_2026_01");

    static PartitionedTables.Relation root(PartitionedTables.Member... members) {
        return new PartitionedTables.Relation(ROOT, true, false, List.of(), List.of(members));
    }

    static PartitionedTables.Member member(TableId t, boolean leaf, char identity, boolean unlogged) {
        return new PartitionedTables.Member(t.hashCode(), t, leaf, identity, unlogged);
    }

    @Test
    void aPlainTableOrARootAloneOrAPartitionAloneIsTaken() {
        assertThat(CapturedTableRules.refusals(List.of(new PartitionedTables.Relation(LEAF, false, false, List.of(MID, ROOT), List.of()))))
                .isEmpty();
        assertThat(CapturedTableRules.refusals(List.of(root(member(ROOT, false, 'f', false), member(LEAF, true, 'd', false))))).isEmpty();
    }

    @Test
    void aPartitionBesideAnyCapturedAncestorIsRefusedNamingTheOutermostRoot() {
        List<String> lines = CapturedTableRules.refusals(List.of(root(),
                new PartitionedTables.Relation(LEAF, false, false, List.of(MID, ROOT), List.of())));
        assertThat(lines).containsExactly("source.tables lists public.m_2026_01 beside partitioned table public.m, which holds it: "
                + "capture takes public.m as its root with every partition (one topic, public.m's name), so remove public.m_2026_01 "
                + "from source.tables");
    }

    @Test
    void anUnloggedTableOrPartitionIsRefusedNamingTheCommand() {
        assertThat(CapturedTableRules.refusals(List.of(new PartitionedTables.Relation(new TableId("s", "Odd \"t\""), false, true,
                List.of(), List.of())))).containsExactly("table s.Odd \"t\" is UNLOGGED, so its changes are not in the WAL and capture "
                + "would never see one: run ALTER TABLE \"s\".\"Odd \"\"t\"\"\" SET LOGGED or remove s.Odd \"t\" from source.tables");
        assertThat(CapturedTableRules.refusals(List.of(root(member(ROOT, false, 'f', false), member(LEAF, true, 'f', true)))))
                .containsExactly("partition public.m_2026_01 of captured table public.m is UNLOGGED, so its changes are not in the WAL "
                        + "and capture would never see one: run ALTER TABLE \"public\".\"m_2026_01\" SET LOGGED or remove public.m "
                        + "from source.tables");
    }

    @Test
    void everyMemberBelowTheRootWithoutFullIdentityIsToBeSet() {
        assertThat(CapturedTableRules.lackingFullIdentity(root(member(ROOT, false, 'd', false), member(MID, false, 'd', false),
                member(LEAF, true, 'n', false), member(new TableId("public", "m_2026_02"), true, 'f', false))))
                .containsExactly(MID, LEAF);
    }

    @Test
    void anExistingPublicationWithoutViaRootIsRefusedOnlyWhenAPartitionedTableIsCaptured() {
        assertThat(PublicationSpec.refusal("pub", Optional.empty(), List.of(ROOT))).isEmpty();
        assertThat(PublicationSpec.refusal("pub", Optional.of(true), List.of(ROOT))).isEmpty();
        assertThat(PublicationSpec.refusal("pub", Optional.of(false), List.of())).isEmpty();
        assertThat(PublicationSpec.refusal("pub", Optional.of(false), List.of(ROOT))).hasValue("publication \"pub\" publishes the "
                + "partitions of public.m under their own names (publish_via_partition_root = false), so capture would miss every "
                + "change to them: run ALTER PUBLICATION \"pub\" SET (publish_via_partition_root = true), then start again with "
                + "--resnapshot (changes made to them before were not captured)");
    }

    @Test
    void debeziumCreatesThePublicationViaTheRoot() {
        Properties p = new Properties();
        PublicationSpec.configure(p);
        assertThat(p).containsEntry("publish.via.partition.root", "true");
    }
}
