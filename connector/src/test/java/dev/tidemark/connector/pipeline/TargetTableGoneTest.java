package dev.tidemark.connector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetTableGoneTest {
    static final TableId A = new TableId("public", "a");
    static final TableId B = new TableId("sales", "b");

    private static TargetTableGone.TableState state(TableId t, String target, boolean offsets, boolean exists, boolean written,
                                                    boolean rows, boolean pending) {
        return new TargetTableGone.TableState(t, target, "p." + t, offsets, exists, written, rows, pending);
    }

    @Test
    void aDroppedTableTheSinkWroteIsRefusedNamingTableTargetTopicAndTheTableSnapshot() {
        TargetTableGone.Outcome o = TargetTableGone.decide(List.of(state(A, "a", true, false, true, true, false),
                state(B, "b", true, true, true, true, false)), "pipe.yaml");
        assertThat(o).isInstanceOf(TargetTableGone.Refuse.class);
        assertThat(((TargetTableGone.Refuse) o).line()).isEqualTo("table public.a: target table a was written by this sink but no longer"
                + " exists, while the target stored offsets of topic p.public.a: resuming would create it with later rows only."
                + " Nothing was applied. To rebuild it from the source, request its snapshot:"
                + " `tidemark snapshot --config pipe.yaml --table public.a`");
    }

    @Test
    void aNewTargetTableUnderAChangedMappingIsRefusedTooAndEveryTableAtFaultIsInTheOneCommand() {
        TargetTableGone.Outcome o = TargetTableGone.decide(List.of(state(A, "a_v2", true, false, false, true, false),
                state(B, "b", true, false, true, true, false)), "F");
        String line = ((TargetTableGone.Refuse) o).line();
        assertThat(line).contains("target table a_v2 does not exist (is it new in target.tables?)", "target table b was written")
                .endsWith("`tidemark snapshot --config F --table public.a --table sales.b`");
    }

    @Test
    void aPendingSnapshotLetsTheSinkStartAndRebuildsOnlyTablesItWroteBefore() {
        TargetTableGone.TableState dropped = state(A, "a", true, false, true, true, true);
        TargetTableGone.TableState moved = state(B, "b2", true, false, false, true, true);
        assertThat(TargetTableGone.decide(List.of(dropped, moved), "F")).isEqualTo(new TargetTableGone.Proceed(List.of(dropped)));
    }

    @Test
    void noStoredOffsetsAnExistingTableOrAnEmptySourceTableIsNoFault() {
        assertThat(TargetTableGone.decide(List.of(state(A, "a", false, false, true, true, false), // a new target or topic
                state(B, "b", true, true, true, true, false)), "F")).isEqualTo(new TargetTableGone.Proceed(List.of()));
        assertThat(TargetTableGone.decide(List.of(state(A, "a", true, false, true, false, false)), "F"))
                .as("the records still to come leave an empty source table's target equal").isEqualTo(new TargetTableGone.Proceed(List.of()));
    }
}
