package dev.tidemark.connect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ResumedTableTest {
    static final TopicPartition TP = new TopicPartition("shop.public.things", 1);
    static final TableId THINGS = new TableId("public", "things");

    @Test
    void aDroppedTableTheSinkWroteNamesTopicPartitionTableAndBothResets() {
        assertThat(ResumedTable.refusal(TP, 60, THINGS, "things", false, true, "o'sink", "orders-sink")).hasValue(
                "topic shop.public.things partition 1: target table things (of table public.things) was written by this sink but no"
                        + " longer exists, while the target stored offset 60 for this partition: resuming would create it with later"
                        + " rows only, so the task stopped before writing it, offsets not advanced. To fill it by replaying the topic"
                        + " from offset 0 (the topic must still hold the table's whole history, as a Debezium topic does from its"
                        + " snapshot), run on the target `DELETE FROM tidemark_offsets WHERE pipeline = 'o''sink' AND topic ="
                        + " 'shop.public.things'` and `DELETE FROM tidemark_columns WHERE table_name = 'things'`, then restart the"
                        + " failed task (`POST /connectors/orders-sink/restart?includeTasks=true&onlyFailed=true`); or restore the"
                        + " table and restart the task");
    }

    @Test
    void aNewTableUnderAChangedMappingResetsOnlyTheOffsets() {
        assertThat(ResumedTable.refusal(TP, 60, THINGS, "things_v2", false, false, "p", "c")).hasValueSatisfying(line -> assertThat(line)
                .contains("target table things_v2 (of table public.things) does not exist (is it new in target.tables?)",
                        "`DELETE FROM tidemark_offsets WHERE pipeline = 'p' AND topic = 'shop.public.things'`, then restart",
                        "or restore the previous target.tables entry")
                .doesNotContain("tidemark_columns"));
    }

    @Test
    void anExistingTableOrAPartitionNeverAppliedIsNoFault() {
        assertThat(ResumedTable.refusal(TP, 60, THINGS, "things", true, true, "p", "c")).isEmpty();
        assertThat(ResumedTable.refusal(TP, 0, THINGS, "things", false, false, "p", "c")).isEmpty();
    }

    @Test
    void anEmptiedTableWhoseAppliedRecordsLeaveRowsNamesTheReplayOfItsTopic() {
        assertThat(ResumedTable.emptied(TP, 60, THINGS, "things", false, true, "p", "orders-sink")).hasValue(
                "topic shop.public.things partition 1: target table things (of table public.things) holds no rows, while the records"
                        + " of this partition the task applied last, below the stored offset 60, leave rows in it (was it emptied by"
                        + " hand, or is it new in target.tables?): resuming would leave out every row applied before, so the task"
                        + " stopped before writing it, offsets not advanced. To fill it by replaying the topic from offset 0 (the topic"
                        + " must still hold the table's whole history, as a Debezium topic does from its snapshot), run on the target"
                        + " `DELETE FROM tidemark_offsets WHERE pipeline = 'p' AND topic = 'shop.public.things'`, then restart the"
                        + " failed task (`POST /connectors/orders-sink/restart?includeTasks=true&onlyFailed=true`); or restore its"
                        + " rows and restart the task");
    }

    @Test
    void aTableWithRowsOrWhoseAppliedRecordsLeaveNoneIsNotEmptiedByHand() {
        assertThat(ResumedTable.emptied(TP, 60, THINGS, "things", true, true, "p", "c")).isEmpty();
        assertThat(ResumedTable.emptied(TP, 60, THINGS, "things", false, false, "p", "c")).as("its rows were deleted at the source").isEmpty();
        assertThat(ResumedTable.emptied(TP, 0, THINGS, "things", false, true, "p", "c")).isEmpty();
    }
}
