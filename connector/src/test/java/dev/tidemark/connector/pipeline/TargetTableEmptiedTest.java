package dev.tidemark.connector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TargetTableEmptiedTest {
    static final TableId A = new TableId("public", "a");
    static final TableId B = new TableId("sales", "b");

    private static TargetTableEmptied.TableState state(TableId t, boolean empty, boolean applied, boolean rows, boolean pending) {
        return new TargetTableEmptied.TableState(t, t.table(), "p." + t, empty, applied, rows, pending);
    }

    @Test
    void anEmptiedTableIsRefusedNamingTableTargetTopicAndTheTableSnapshot() {
        assertThat(TargetTableEmptied.refusal(List.of(state(A, true, true, true, false), state(B, false, true, true, false)), "pipe.yaml"))
                .contains("table public.a: target table a holds no rows, while the records of topic p.public.a the target applied"
                        + " last leave rows in it and the source table holds rows (was it emptied by hand?): resuming would leave out"
                        + " every row applied before. Nothing was applied. To refill it from the source, request its snapshot:"
                        + " `tidemark snapshot --config pipe.yaml --table public.a`");
    }

    @Test
    void everyEmptiedTableIsInTheOneCommand() {
        assertThat(TargetTableEmptied.refusal(List.of(state(A, true, true, true, false), state(B, true, true, true, false)), "F"))
                .hasValueSatisfying(line -> assertThat(line).contains("target table a holds", "target table b holds")
                        .endsWith("`tidemark snapshot --config F --table public.a --table sales.b`"));
    }

    @Test
    void noFaultWhenTheAppliedRecordsLeaveNoRowTheSourceIsEmptyOrASnapshotIsPending() {
        assertThat(TargetTableEmptied.refusal(List.of(state(A, true, false, true, false)), "F"))
                .as("rows all deleted at the source and applied, the source refilled while stopped").isEqualTo(Optional.empty());
        assertThat(TargetTableEmptied.refusal(List.of(state(A, true, true, false, false)), "F"))
                .as("the records still to come empty the target too").isEqualTo(Optional.empty());
        assertThat(TargetTableEmptied.refusal(List.of(state(A, true, true, true, true)), "F"))
                .as("the requested snapshot refills it").isEqualTo(Optional.empty());
        assertThat(TargetTableEmptied.refusal(List.of(state(A, false, true, true, false)), "F")).isEqualTo(Optional.empty());
    }
}
