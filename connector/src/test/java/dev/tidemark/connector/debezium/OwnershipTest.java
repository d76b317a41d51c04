package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Whose slot and publication they are, and what capture and drop may do with them. */
class OwnershipTest {
    private static final SlotOwner B = new SlotOwner("b", "bbbbbbbb-1", "slot_b", "pub_b");
    private static final SlotOwner A = new SlotOwner("a", "aaaaaaaa-1", "slot_a", "pub_a");

    /** Pipeline b with slot {@code slot} and publication pub_b. */
    private static Ownership.Facts facts(String slot, Optional<SlotOwner> local, boolean offsets, boolean slotExists,
                                         Optional<SlotOwner> slotRecord, boolean pubExists, Optional<SlotOwner> pubRecord, boolean tablesMatch,
                                         Optional<Ownership.Holder> holder) {
        return new Ownership.Facts("b", slot, "pub_b", Path.of("/s"), local, offsets, slotExists, holder, slotRecord, pubExists, pubRecord,
                tablesMatch);
    }

    @Test
    void aFreshPipelineCreatesBothAndRecordsThemWithItsNewId() {
        Ownership.Facts f = facts("slot_b", Optional.empty(), false, false, Optional.empty(), false, Optional.empty(), false, Optional.empty());
        assertThat(Ownership.decide(f, "new-id", false, "b.yaml"))
                .isEqualTo(new Ownership.Verdict.Proceed(new SlotOwner("b", "new-id", "slot_b", "pub_b"), false, true));
    }

    @Test
    void anotherPipelinesRecordedSlotIsRefusedWhateverTheUserChose() {
        Ownership.Facts f = facts("slot_a", Optional.of(B), true, true, Optional.of(A), false, Optional.empty(), false, Optional.empty());
        for (boolean acceptGap : new boolean[] {false, true}) {
            Ownership.Verdict v = Ownership.decide(f, "x", acceptGap, "b.yaml");
            assertThat(v).isInstanceOf(Ownership.Verdict.Refuse.class);
            assertThat(((Ownership.Verdict.Refuse) v).message()).isEqualTo("capture refuses to start: replication slot \"slot_a\" belongs to "
                    + "pipeline a (owner id aaaaaaaa, recorded on publication \"pub_a\"), not to pipeline b; nothing was changed. Give pipeline b"
                    + " a slot of its own: set source.slot in b.yaml to a name no other pipeline uses (capture creates it)");
        }
        assertThat(Ownership.slotMine(f, false)).as("drop leaves it").isFalse();
    }

    @Test
    void anUnrecordedSlotIsTheNewPipelinesOnlyWithOffsetsOrAnExplicitAcceptGap() {
        Ownership.Facts fresh = facts("slot_x", Optional.empty(), false, true, Optional.empty(), false, Optional.empty(), false, Optional.empty());
        assertThat(Ownership.slotMine(fresh, false)).isFalse();
        assertThat(((Ownership.Verdict.Refuse) Ownership.decide(fresh, "x", false, "b.yaml")).message())
                .contains("replication slot \"slot_x\" exists but pipeline b did not create it (no Tidemark owner record names it and the "
                        + "pipeline has no offsets in /s)", "set source.slot in b.yaml").doesNotContain("--resnapshot");
        assertThat(Ownership.slotMine(fresh, true)).as("--accept-gap adopts a slot created in advance").isTrue();
        Ownership.Facts ranBefore = facts("slot_x", Optional.empty(), true, true, Optional.empty(), false, Optional.empty(), false, Optional.empty());
        assertThat(Ownership.slotMine(ranBefore, false)).as("a pipeline from before owner records, proved by its offsets").isTrue();
        Ownership.Facts ownFileNamesAnother = facts("slot_x", Optional.of(B), true, true, Optional.empty(), false, Optional.empty(), false,
                Optional.empty());
        assertThat(Ownership.slotMine(ownFileNamesAnother, false)).as("its owner file names slot_b, not slot_x").isFalse();
    }

    @Test
    void itsOwnSlotHeldByAWalsenderMeansThePipelineRunsAlready() {
        Optional<Ownership.Holder> held = Optional.of(new Ownership.Holder(4711, "10.0.0.7", "tidemark"));
        Ownership.Facts f = facts("slot_b", Optional.of(B), true, true, Optional.of(B), true, Optional.of(B), true, held);
        assertThat(Ownership.decide(f, "x", false, "b.yaml")).isEqualTo(new Ownership.Verdict.Refuse("pipeline b is already running (slot "
                + "\"slot_b\" held by PID 4711 from host 10.0.0.7); nothing was changed: stop that process before starting this one"));
        SlotOwner otherCopy = new SlotOwner("b", "cccccccc-2", "slot_b", "pub_b");
        Ownership.Facts elsewhere = facts("slot_b", Optional.empty(), false, true, Optional.of(otherCopy), true, Optional.of(otherCopy), true, held);
        assertThat(((Ownership.Verdict.Refuse) Ownership.decide(elsewhere, "x", false, "b.yaml")).message())
                .as("the same pipeline started from another state folder").startsWith("pipeline b is already running (slot \"slot_b\" held by PID 4711");
    }

    @Test
    void publicationsAreOwnedSharedOrRefused() {
        Ownership.Facts mine = facts("slot_b", Optional.of(B), true, true, Optional.of(B), true, Optional.of(B), false, Optional.empty());
        assertThat(Ownership.publication(mine)).isEqualTo(Ownership.Publication.MINE);
        assertThat(Ownership.decide(mine, "x", false, "b.yaml")).isEqualTo(new Ownership.Verdict.Proceed(B, false, false));
        Ownership.Facts provided = facts("slot_b", Optional.empty(), false, false, Optional.empty(), true, Optional.empty(), true, Optional.empty());
        assertThat(Ownership.publication(provided)).as("unrecorded, exactly the captured tables").isEqualTo(Ownership.Publication.SHARED);
        assertThat(Ownership.decide(provided, "new", false, "b.yaml"))
                .isEqualTo(new Ownership.Verdict.Proceed(new SlotOwner("b", "new", "slot_b", null), false, false));
        Ownership.Facts otherTables = facts("slot_b", Optional.empty(), false, false, Optional.empty(), true, Optional.empty(), false, Optional.empty());
        assertThat(((Ownership.Verdict.Refuse) Ownership.decide(otherTables, "x", false, "b.yaml")).message())
                .contains("publication \"pub_b\" exists with other tables", "set source.publication in b.yaml");
        Ownership.Facts foreign = facts("slot_b", Optional.of(B), true, false, Optional.empty(), true, Optional.of(A), true, Optional.empty());
        assertThat(Ownership.publication(foreign)).isEqualTo(Ownership.Publication.REFUSED);
        Ownership.Facts adopted = facts("slot_b", Optional.empty(), true, true, Optional.empty(), true, Optional.empty(), false, Optional.empty());
        assertThat(Ownership.decide(adopted, "new", false, "b.yaml")).as("a pipeline from before owner records: recorded now")
                .isEqualTo(new Ownership.Verdict.Proceed(new SlotOwner("b", "new", "slot_b", "pub_b"), true, false));
    }

    @Test
    void theRecordRoundTripsAndOtherCommentsAreNotRecords() {
        assertThat(SlotOwner.decode(B.encode())).contains(B);
        assertThat(SlotOwner.decode(new SlotOwner("a", "i", "s", null).encode())).contains(new SlotOwner("a", "i", "s", null));
        assertThat(SlotOwner.decode("publication for the reporting team")).isEmpty();
        assertThat(SlotOwner.decode("tidemark-owner v1 {broken")).isEmpty();
    }
}
