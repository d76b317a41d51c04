package dev.tidemark.event;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The encoded order of positions (as the targets compare them), checked over random positions against the order they stand for: a version 2
 * position is ordered by (ordering LSN, phase, change LSN) as unsigned numbers, a version 1 rendering of the same
 * ordering LSN sorts just before it, and a repair position ({@code After}) sorts after what it follows and before
 * every strictly later position.
 */
class SourcePositionOrderTest {
    private static final Random RANDOM = new Random(911);

    private static long lsn() {
        // mostly small, sometimes close to each other, sometimes with the sign bit set
        return switch (RANDOM.nextInt(4)) {
            case 0 -> RANDOM.nextInt(1 << 12);
            case 1 -> 0x1000_0000L + RANDOM.nextInt(64);
            case 2 -> RANDOM.nextLong();
            default -> Math.abs(RANDOM.nextLong() >> RANDOM.nextInt(60));
        };
    }

    private static SourcePosition.Wal wal() {
        SourcePosition.Phase phase = SourcePosition.Phase.values()[RANDOM.nextInt(3)];
        return new SourcePosition.Wal(lsn(), phase, phase == SourcePosition.Phase.SNAPSHOT ? 0 : lsn());
    }

    private static final Comparator<SourcePosition.Wal> MEANING = Comparator
            .<SourcePosition.Wal, Long>comparing(SourcePosition.Wal::order, Long::compareUnsigned)
            .thenComparing(SourcePosition.Wal::phase)
            .thenComparing(SourcePosition.Wal::change, Long::compareUnsigned);

    @Test
    void renderedOrderIsTheOrderOfCommitPhaseAndChange() {
        for (int i = 0; i < 20_000; i++) {
            SourcePosition.Wal a = wal();
            SourcePosition.Wal b = RANDOM.nextBoolean() ? wal()
                    : new SourcePosition.Wal(a.order(), SourcePosition.Phase.values()[RANDOM.nextInt(3)], lsn());
            int meant = Integer.signum(MEANING.compare(a, b));
            assertThat(Integer.signum(compareEncoded(a.encode(), b.encode())))
                    .as("%s vs %s", a.encode(), b.encode()).isEqualTo(meant);
            assertThat(Integer.signum(a.compareTo(b))).as("%s compareTo %s", a, b).isEqualTo(meant);
        }
    }

    @Test
    void sortingRenderingsSortsPositions() {
        List<SourcePosition.Wal> positions = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            positions.add(wal());
        }
        List<SourcePosition.Wal> byMeaning = new ArrayList<>(positions);
        byMeaning.sort(MEANING);
        List<SourcePosition.Wal> byRendering = new ArrayList<>(positions);
        byRendering.sort((x, y) -> compareEncoded(x.encode(), y.encode()));
        assertThat(byRendering).isEqualTo(byMeaning);
        List<SourcePosition.Wal> natural = new ArrayList<>(positions);
        natural.sort(null);
        assertThat(natural).isEqualTo(byMeaning);
    }

    @Test
    void aSnapshotRowSortsAfterEverythingCommittedBeforeItAndBeforeWhatFollowsIt() {
        for (int i = 0; i < 10_000; i++) {
            long snapshot = 0x1000 + RANDOM.nextInt(1 << 20);
            String row = new SourcePosition.Wal(snapshot, SourcePosition.Phase.SNAPSHOT, 0).encode();
            long before = RANDOM.nextInt((int) snapshot); // the transaction decoded before one that committed before
            String older = new SourcePosition.Wal(before, SourcePosition.Phase.STREAM, before + RANDOM.nextInt(1 << 20)).encode();
            long change = RANDOM.nextInt(1 << 21); // may lie below the snapshot: the transaction was open during it
            String first = new SourcePosition.Wal(0, SourcePosition.Phase.FIRST, change).atLeast(snapshot).encode();
            // the next transaction is ordered by the first one's commit, after the snapshot; so is a capture restarted
            // inside the first transaction (Debezium then reports its last processed LSN, at or after the snapshot's)
            long commit = snapshot + RANDOM.nextInt(1 << 20);
            String next = new SourcePosition.Wal(commit, SourcePosition.Phase.STREAM, RANDOM.nextInt(1 << 21)).encode();
            assertThat(compareEncoded(older, row)).isNegative();
            assertThat(compareEncoded(row, first)).isNegative();
            assertThat(compareEncoded(first, next)).isNegative();
        }
    }

    @Test
    void versionOneRowsOrderBeforeVersionTwoPositionsOfTheSameLsnAndAfterSmallerOnes() {
        for (int i = 0; i < 10_000; i++) {
            long l = lsn();
            String v1 = new SourcePosition.Lsn(l).encode();
            SourcePosition.Wal same = new SourcePosition.Wal(l, SourcePosition.Phase.values()[RANDOM.nextInt(3)], lsn());
            assertThat(compareEncoded(v1, same.encode())).isNegative();
            SourcePosition.Wal other = wal();
            int meant = Long.compareUnsigned(l, other.order());
            if (meant != 0) {
                assertThat(Integer.signum(compareEncoded(v1, other.encode()))).isEqualTo(Integer.signum(meant));
            }
        }
    }

    @Test
    void aRepairSortsJustAfterWhatItFollows() {
        for (int i = 0; i < 10_000; i++) {
            SourcePosition.Wal stored = wal();
            SourcePosition.Wal later = wal();
            String after = new SourcePosition.After(stored).encode();
            assertThat(compareEncoded(stored.encode(), after)).isNegative();
            if (MEANING.compare(later, stored) > 0) {
                assertThat(compareEncoded(after, later.encode())).as("%s vs %s", after, later.encode()).isNegative();
            }
        }
    }

    @Test
    void aFirstTransactionPositionRisesOnlyToTheSnapshot() {
        SourcePosition.Wal first = new SourcePosition.Wal(0, SourcePosition.Phase.FIRST, 50);
        assertThat(first.atLeast(80)).isEqualTo(new SourcePosition.Wal(80, SourcePosition.Phase.FIRST, 50));
        assertThat(first.atLeast(80).atLeast(20)).isEqualTo(first.atLeast(80));
        SourcePosition.Wal stream = new SourcePosition.Wal(50, SourcePosition.Phase.STREAM, 60);
        assertThat(stream.atLeast(80)).isEqualTo(stream);
    }

    @Test
    void decodesDebeziumSourceBlocksAsRecordedFrom361() {
        // recorded by SnapshotInFlightTransactionIT from Debezium 3.6.1
        assertThat(EnvelopeDecoder.position(source("true", "[null,\"33360368\"]", 33360368)))
                .isEqualTo(new SourcePosition.Wal(33360368, SourcePosition.Phase.SNAPSHOT, 0));
        assertThat(EnvelopeDecoder.position(source("last", "[null,\"33360368\"]", 33360368)))
                .isEqualTo(new SourcePosition.Wal(33360368, SourcePosition.Phase.SNAPSHOT, 0));
        assertThat(EnvelopeDecoder.position(source(null, "[null,\"32368976\"]", 32368976)))
                .isEqualTo(new SourcePosition.Wal(0, SourcePosition.Phase.FIRST, 32368976));
        assertThat(EnvelopeDecoder.position(source("false", "[\"32369100\",\"32369200\"]", 32369200)))
                .isEqualTo(new SourcePosition.Wal(32369100, SourcePosition.Phase.STREAM, 32369200));
        ObjectNode tidemark = JsonNodeFactory.instance.objectNode().put("lsn", 99L);
        assertThat(EnvelopeDecoder.position(tidemark)).isEqualTo(new SourcePosition.Lsn(99));
    }

    private static ObjectNode source(String snapshot, String sequence, long lsn) {
        ObjectNode s = JsonNodeFactory.instance.objectNode();
        if (snapshot == null) {
            s.putNull("snapshot");
        } else {
            s.put("snapshot", snapshot);
        }
        s.put("sequence", sequence);
        s.put("lsn", lsn);
        return s;
    }

    /** How the targets compare the position column: the encodings as UTF-8 bytes, unsigned. */
    static int compareEncoded(String a, String b) {
        return java.util.Arrays.compareUnsigned(a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
