package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every row of the start decision's table, without servers. */
class CaptureStartDecisionTest {
    static final Path FILE = Path.of("/state/orders.offsets");
    static final String SLOT = "tidemark_orders";
    static final String CONFIG = "pipeline.yaml";
    static final SlotState NO_SLOT = new SlotState.Absent();
    static final StoredOffsets NO_OFFSETS = new StoredOffsets.Absent(FILE);
    static final StoredOffsets DAMAGED = new StoredOffsets.Damaged(FILE, "the file is empty");

    static SlotState slotAt(String lsn) {
        return new SlotState.Present(Lsn.parse(lsn), false);
    }

    static StoredOffsets offsetsAt(String lsn) {
        return new StoredOffsets.Present(FILE, Map.of(ByteBuffer.wrap(new byte[] {1}), ByteBuffer.wrap(new byte[] {2})),
                Optional.of(Lsn.parse(lsn)), false, false);
    }

    static CaptureStart decide(SlotState slot, StoredOffsets offsets, CaptureChoice choice) {
        return CaptureStartDecision.decide(SLOT, CONFIG, slot, offsets, choice);
    }

    @Test
    void nothingYetStartsFresh() {
        assertThat(decide(NO_SLOT, NO_OFFSETS, CaptureChoice.NONE)).isEqualTo(new CaptureStart.Fresh());
        assertThat(decide(NO_SLOT, NO_OFFSETS, CaptureChoice.ACCEPT_GAP)).isEqualTo(new CaptureStart.Fresh());
        assertThat(decide(NO_SLOT, NO_OFFSETS, CaptureChoice.RESNAPSHOT)).isEqualTo(new CaptureStart.Resnapshot(false, false));
    }

    @Test
    void slotAndOffsetsThatAgreeResume() {
        assertThat(decide(slotAt("0/1000"), offsetsAt("0/2000"), CaptureChoice.NONE)).isEqualTo(new CaptureStart.Resume(Lsn.parse("0/2000")));
        assertThat(decide(slotAt("0/2000"), offsetsAt("0/2000"), CaptureChoice.NONE)).isEqualTo(new CaptureStart.Resume(Lsn.parse("0/2000")));
        assertThat(decide(slotAt("0/2000"), offsetsAt("0/2000"), CaptureChoice.ACCEPT_GAP)).isEqualTo(new CaptureStart.Resume(Lsn.parse("0/2000")));
        assertThat(decide(new SlotState.Present(null, false), offsetsAt("0/2000"), CaptureChoice.NONE))
                .isEqualTo(new CaptureStart.Resume(Lsn.parse("0/2000")));
    }

    @Test
    void missingOffsetsWithASlotAreRefusedNamingSlotFileAndTheWaysOn() {
        CaptureStart s = decide(slotAt("1/A0"), NO_OFFSETS, CaptureChoice.NONE);
        assertThat(s).isInstanceOf(CaptureStart.Refuse.class);
        String m = ((CaptureStart.Refuse) s).message();
        assertThat(m).contains("\"" + SLOT + "\"", FILE.toString(), "1/A0", "is missing", "--resnapshot", "--accept-gap",
                "the target rows it no longer has are removed").doesNotContain("reconcile").doesNotContain("\n");
    }

    @Test
    void aStopBeforeTheFirstStoredPositionIsRecoveredOnlyByTheSnapshotTheStopNamed() {
        Optional<String> note = Optional.of("tidemark run --config pipeline.yaml --resnapshot");
        for (CaptureChoice choice : new CaptureChoice[] {CaptureChoice.NONE, CaptureChoice.ACCEPT_GAP}) {
            CaptureStart s = CaptureStartDecision.decide(SLOT, CONFIG, slotAt("1/A0"), NO_OFFSETS, Optional.empty(), note, choice);
            assertThat(s).as(choice.toString()).isInstanceOf(CaptureStart.Refuse.class);
            assertThat(((CaptureStart.Refuse) s).message()).as(choice.toString())
                    .contains("\"" + SLOT + "\"", "stopped before it stored a first position", "nothing was captured",
                            "`tidemark run --config pipeline.yaml --resnapshot`")
                    .doesNotContain("restart with --accept-gap").doesNotContain("\n");
        }
        assertThat(CaptureStartDecision.decide(SLOT, CONFIG, slotAt("1/A0"), NO_OFFSETS, Optional.empty(), note, CaptureChoice.RESNAPSHOT))
                .isEqualTo(new CaptureStart.Resnapshot(true, false));
        assertThat(CaptureStartDecision.decide(SLOT, CONFIG, slotAt("1/A0"), offsetsAt("1/A0"), Optional.empty(), note, CaptureChoice.NONE))
                .as("offsets stored since: the note is stale").isEqualTo(new CaptureStart.Resume(Lsn.parse("1/A0")));
    }

    @Test
    void theWaysOnAreWholeCommandsWhenTheCommandIsKnown() {
        CaptureStart s = CaptureStartDecision.decide(SLOT, CONFIG, "capture", slotAt("1/A0"), NO_OFFSETS, Optional.empty(), Optional.empty(),
                CaptureChoice.NONE);
        assertThat(((CaptureStart.Refuse) s).message())
                .contains("`tidemark capture --config pipeline.yaml --resnapshot`", "`tidemark capture --config pipeline.yaml --accept-gap`")
                .doesNotContain("restart with");
    }

    @Test
    void damagedOffsetsAreRefusedWithTheReason() {
        for (SlotState slot : new SlotState[] {slotAt("1/A0"), NO_SLOT}) {
            CaptureStart s = decide(slot, DAMAGED, CaptureChoice.NONE);
            assertThat(s).isInstanceOf(CaptureStart.Refuse.class);
            assertThat(((CaptureStart.Refuse) s).message()).contains(FILE.toString(), "damaged", "the file is empty", SLOT).doesNotContain("\n");
        }
    }

    @Test
    void aSlotAheadOfTheOffsetsIsRefusedNamingBothPositions() {
        CaptureStart s = decide(slotAt("0/3000"), offsetsAt("0/2FFF"), CaptureChoice.NONE);
        assertThat(s).isInstanceOf(CaptureStart.Refuse.class);
        assertThat(((CaptureStart.Refuse) s).message()).contains(SLOT, "0/3000", "0/2FFF", FILE.toString(), "ahead");
    }

    @Test
    void aSlotAheadOfTheOffsetsButNotOfWhatKafkaAcknowledgedResumes() {
        // Debezium confirms to the slot after storing offsets: a kill in between leaves the slot ahead, nothing lost
        assertThat(CaptureStartDecision.decide(SLOT, CONFIG, slotAt("0/3000"), offsetsAt("0/2000"), Optional.of(Lsn.parse("0/3000")),
                CaptureChoice.NONE)).isEqualTo(new CaptureStart.Resume(Lsn.parse("0/2000")));
        CaptureStart beyond = CaptureStartDecision.decide(SLOT, CONFIG, slotAt("0/3001"), offsetsAt("0/2000"),
                Optional.of(Lsn.parse("0/3000")), CaptureChoice.NONE);
        assertThat(beyond).isInstanceOf(CaptureStart.Refuse.class);
        assertThat(((CaptureStart.Refuse) beyond).message()).contains("0/3001", "0/2000", "0/3000");
    }

    @Test
    void aSlotGoneWhileOffsetsExistIsRefused() {
        CaptureStart s = decide(NO_SLOT, offsetsAt("0/2000"), CaptureChoice.NONE);
        assertThat(s).isInstanceOf(CaptureStart.Refuse.class);
        assertThat(((CaptureStart.Refuse) s).message()).contains(SLOT, "does not exist", "0/2000", FILE.toString(), "creates a new slot");
    }

    @Test
    void offsetsWithoutAPositionAreRefused() {
        StoredOffsets none = new StoredOffsets.Present(FILE, Map.of(), Optional.empty(), false, false);
        assertThat(decide(slotAt("0/10"), none, CaptureChoice.NONE)).isInstanceOf(CaptureStart.Refuse.class);
        assertThat(decide(slotAt("0/10"), none, CaptureChoice.ACCEPT_GAP)).isEqualTo(new CaptureStart.AcceptGap(true));
    }

    @Test
    void offsetsStoredDuringAnUnfinishedSnapshotAreRefused() {
        StoredOffsets during = new StoredOffsets.Present(FILE, Map.of(), Optional.of(Lsn.parse("0/20")), false, true);
        CaptureStart s = decide(slotAt("0/20"), during, CaptureChoice.NONE);
        assertThat(s).isInstanceOf(CaptureStart.Refuse.class);
        assertThat(((CaptureStart.Refuse) s).message()).contains("initial snapshot", "did not complete", FILE.toString(), SLOT);
        assertThat(decide(slotAt("0/20"), during, CaptureChoice.RESNAPSHOT)).isEqualTo(new CaptureStart.Resnapshot(true, true));
    }

    @Test
    void resnapshotIsHonouredWheneverAsked() {
        assertThat(decide(slotAt("0/10"), NO_OFFSETS, CaptureChoice.RESNAPSHOT)).isEqualTo(new CaptureStart.Resnapshot(true, false));
        assertThat(decide(slotAt("0/10"), DAMAGED, CaptureChoice.RESNAPSHOT)).isEqualTo(new CaptureStart.Resnapshot(true, true));
        assertThat(decide(NO_SLOT, offsetsAt("0/10"), CaptureChoice.RESNAPSHOT)).isEqualTo(new CaptureStart.Resnapshot(false, true));
        assertThat(decide(slotAt("0/10"), offsetsAt("0/20"), CaptureChoice.RESNAPSHOT)).isEqualTo(new CaptureStart.Resnapshot(true, true));
    }

    @Test
    void acceptGapKeepsOffsetsOnlyWhenTheyAreUsable() {
        assertThat(decide(slotAt("0/3000"), offsetsAt("0/2000"), CaptureChoice.ACCEPT_GAP)).isEqualTo(new CaptureStart.AcceptGap(false));
        assertThat(decide(slotAt("0/3000"), NO_OFFSETS, CaptureChoice.ACCEPT_GAP)).isEqualTo(new CaptureStart.AcceptGap(true));
        assertThat(decide(slotAt("0/3000"), DAMAGED, CaptureChoice.ACCEPT_GAP)).isEqualTo(new CaptureStart.AcceptGap(true));
        assertThat(decide(NO_SLOT, offsetsAt("0/2000"), CaptureChoice.ACCEPT_GAP)).isEqualTo(new CaptureStart.AcceptGap(true));
    }

    @Test
    void lsnsParseAndPrintAsPostgresDoes() {
        assertThat(Lsn.parse("16/B374D848").value()).isEqualTo(0x16B374D848L);
        assertThat(Lsn.parse("16/B374D848")).hasToString("16/B374D848");
        assertThat(Lsn.parse("0/0")).hasToString("0/0");
        assertThat(Lsn.parse("1/0").isAfter(Lsn.parse("0/FFFFFFFF"))).isTrue();
    }
}
