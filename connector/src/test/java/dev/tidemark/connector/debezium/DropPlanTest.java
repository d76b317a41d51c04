package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What tidemark drop decides from what it found: refuse, nothing left, dry run, remove. */
class DropPlanTest {
    private static DropPlan.Inventory inventory(boolean slot, boolean active, boolean publication, List<String> topics, List<Path> files) {
        return new DropPlan.Inventory("tidemark_orders", slot, active, slot ? 7_800_000 : -1, "pub_orders", publication, topics, files);
    }

    @Test
    void anActiveSlotIsRefusedWithOrWithoutYes() {
        DropPlan.Inventory running = inventory(true, true, true, List.of(), List.of());
        assertThat(DropPlan.decide(running, true)).isEqualTo(new DropPlan.Refuse("tidemark_orders"));
        assertThat(DropPlan.decide(running, false)).isEqualTo(new DropPlan.Refuse("tidemark_orders"));
    }

    @Test
    void withoutYesItOnlyListsWhatItWouldRemoveInRemovalOrder() {
        DropPlan.Inventory stopped = inventory(true, false, true, List.of("orders.public.orders"), List.of(Path.of("/s/orders.offsets")));
        assertThat(DropPlan.decide(stopped, false)).isEqualTo(new DropPlan.DryRun(stopped));
        assertThat(stopped.items()).containsExactly("replication slot \"tidemark_orders\" (retains 7,800,000 bytes of WAL)",
                "publication \"pub_orders\"", "topic orders.public.orders", "capture offsets file /s/orders.offsets");
        assertThat(DropPlan.decide(stopped, true)).isEqualTo(new DropPlan.Remove(stopped));
    }

    @Test
    void whatIsPartlyGoneIsRemovedAndWhatIsAllGoneIsSaidSo() {
        DropPlan.Inventory onlyFiles = inventory(false, false, false, List.of(), List.of(Path.of("/s/orders.offsets")));
        assertThat(DropPlan.decide(onlyFiles, true)).isEqualTo(new DropPlan.Remove(onlyFiles));
        DropPlan.Inventory gone = inventory(false, false, false, List.of(), List.of());
        assertThat(DropPlan.decide(gone, true)).isEqualTo(new DropPlan.NothingLeft(gone));
        assertThat(DropPlan.decide(gone, false)).isEqualTo(new DropPlan.NothingLeft(gone));
    }

    @Test
    void replacedIdentitiesTargetLeftoversAndOtherStateFilesAreListedAndCount() {
        DropPlan.Inventory leftovers = new DropPlan.Inventory("tidemark_orders", false, false, -1, "pub_orders", false, List.of(),
                List.of(Path.of("/s/orders.last-reconcile.json")),
                List.of(new ReplicaIdentities.Replaced("public", "orders", "d"), new ReplicaIdentities.Replaced("public", "lines", "i:lines_code")),
                new DropPlan.TargetLeftovers("jdbc:sqlite:/t.db", List.of("orders.public.orders"), List.of("orders")));
        assertThat(leftovers.items()).containsExactly(
                "REPLICA IDENTITY FULL on public.orders (set by Tidemark; REPLICA IDENTITY DEFAULT is restored)",
                "REPLICA IDENTITY FULL on public.lines (set by Tidemark; REPLICA IDENTITY USING INDEX \"lines_code\" is restored)",
                "stored offsets for topic orders.public.orders in target jdbc:sqlite:/t.db",
                "table positions of orders in target jdbc:sqlite:/t.db",
                "state file /s/orders.last-reconcile.json");
        assertThat(DropPlan.decide(leftovers, true)).isEqualTo(new DropPlan.Remove(leftovers));
        DropPlan.Inventory onlyTarget = new DropPlan.Inventory("tidemark_orders", false, false, -1, "pub_orders", false, List.of(),
                List.of(), List.of(), new DropPlan.TargetLeftovers("t", List.of("orders.public.orders"), List.of()));
        assertThat(DropPlan.decide(onlyTarget, false)).isEqualTo(new DropPlan.DryRun(onlyTarget));
    }

    @Test
    void theSignalTableTheSchemaChangeTriggerAndTheHistoryRecordsAreListedAndAloneAreStillSomethingToRemove() {
        DropPlan.Inventory objects = new DropPlan.Inventory("tidemark_orders", false, false, -1, "pub_orders", false, List.of(),
                List.of(), List.of(), DropPlan.TargetLeftovers.NONE, new DropPlan.CaptureObjects(
                        java.util.Optional.of("\"public\".\"tidemark_signal_tidemark_orders\""),
                        List.of("event trigger \"tidemark_ddl_orders_end\"", "table \"public\".\"tidemark_ddl_orders_key\""),
                        new HistoryCleanup.Tombstones("orders.__tidemark_history", List.of("orders.public.orders-0"), 3)));
        assertThat(objects.items()).containsExactly(
                "signal table \"public\".\"tidemark_signal_tidemark_orders\"",
                "event trigger \"tidemark_ddl_orders_end\" (the schema-change trigger)",
                "table \"public\".\"tidemark_ddl_orders_key\" (the schema-change trigger)",
                "this pipeline's 1 record(s) in history topic orders.__tidemark_history (by tombstones; 3 record(s) of other pipelines "
                        + "with the same topicPrefix are kept, and the topic)");
        assertThat(DropPlan.decide(objects, false)).isEqualTo(new DropPlan.DryRun(objects));
    }
}
