package dev.tidemark.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.SourcePosition.After;
import dev.tidemark.event.SourcePosition.Lsn;
import dev.tidemark.event.SourcePosition.Phase;
import dev.tidemark.event.SourcePosition.Unknown;
import dev.tidemark.event.SourcePosition.Wal;
import dev.tidemark.event.SourcePosition.Watermark;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The stored text of positions: every form targets hold today is read back to the position that wrote it and
 * encodes to the same bytes; {@code compareTo} agrees with the byte order the targets' SQL uses, for random pairs of
 * every variant; text outside the grammar is refused with a reason.
 */
class SourcePositionCodecTest {
    private static final Random RANDOM = new Random(4242);

    /**
     * Renderings written by Tidemark before the codec existed (printed by {@code SourcePosition.render()} of commit
     * 3e713a7 for these positions), as they sit in position columns and {@code tidemark_table_positions}.
     */
    private static final Map<String, SourcePosition> STORED_TODAY = new LinkedHashMap<>();

    static {
        STORED_TODAY.put("lsn:0000000000000000", new Lsn(0));
        STORED_TODAY.put("lsn:00000000016b3748", new Lsn(0x16B3748L));
        STORED_TODAY.put("lsn:ffffffffffffffff", new Lsn(-1L));
        STORED_TODAY.put("lsn:8000000000000000", new Lsn(0x8000000000000000L));
        STORED_TODAY.put("lsn:0000000001fd09f0:v2:0:0000000000000000", new Wal(33360368, Phase.SNAPSHOT, 0));
        STORED_TODAY.put("lsn:0000000000000000:v2:1:0000000001ede950", new Wal(0, Phase.FIRST, 32368976));
        STORED_TODAY.put("lsn:0000000001fd09f0:v2:1:0000000001ede950", new Wal(33360368, Phase.FIRST, 32368976));
        STORED_TODAY.put("lsn:0000000001ede9cc:v2:2:0000000001edea30", new Wal(32369100, Phase.STREAM, 32369200));
        STORED_TODAY.put("lsn:ffffffffffffffff:v2:2:fffffffffffffffe", new Wal(-1L, Phase.STREAM, -2L));
        STORED_TODAY.put("cursor:2024-05-01T10:00:00.500000000Z|00000000000000000010",
                new Watermark("2024-05-01T10:00:00.500000000Z|00000000000000000010"));
        STORED_TODAY.put("cursor:00000000000000000414", new Watermark("00000000000000000414"));
        STORED_TODAY.put("cursor:-9223372036854775807", new Watermark("-9223372036854775807"));
        STORED_TODAY.put("cursor:2013-12-22T00:00:00.000000000", new Watermark("2013-12-22T00:00:00.000000000"));
        STORED_TODAY.put("cursor:2013-12-22", new Watermark("2013-12-22"));
        STORED_TODAY.put("cursor:not a date", new Watermark("not a date"));
        STORED_TODAY.put("cursor:", new Watermark(""));
        STORED_TODAY.put("lsn:00000000016b3748~", new After(new Lsn(0x16B3748L)));
        STORED_TODAY.put("lsn:0000000001ede9cc:v2:2:0000000001edea30~", new After(new Wal(32369100, Phase.STREAM, 32369200)));
        STORED_TODAY.put("lsn:0000000001fd09f0:v2:0:0000000000000000~", new After(new Wal(33360368, Phase.SNAPSHOT, 0)));
        STORED_TODAY.put("cursor:2026-01-02T03:04:05.000000000Z~", new After(new Watermark("2026-01-02T03:04:05.000000000Z")));
        STORED_TODAY.put("lsn:0000000000000064~~", new After(new After(new Lsn(100))));
        STORED_TODAY.put("", new Unknown());
    }

    @Test
    void readsEveryFormStoredTodayAndWritesItBackByteForByte() {
        STORED_TODAY.forEach((text, position) -> {
            assertThat(SourcePosition.decode(text)).as("decode '%s'", text).isEqualTo(position);
            assertThat(position.encode()).as("encode %s", position).isEqualTo(text);
        });
    }

    @Test
    void theStoredFormsKeepTheirOrder() {
        List<String> texts = new ArrayList<>(STORED_TODAY.keySet());
        texts.sort(SourcePositionOrderTest::compareEncoded);
        List<SourcePosition> positions = new ArrayList<>(STORED_TODAY.values());
        positions.sort(Comparator.naturalOrder());
        assertThat(positions.stream().map(SourcePosition::encode).toList()).isEqualTo(texts);
    }

    @Test
    void compareToIsTheByteOrderOfTheEncodingsForRandomPairs() {
        for (int i = 0; i < 100_000; i++) {
            SourcePosition a = any();
            SourcePosition b = RANDOM.nextInt(3) == 0 ? near(a) : any();
            int bytes = Integer.signum(SourcePositionOrderTest.compareEncoded(a.encode(), b.encode()));
            assertThat(Integer.signum(a.compareTo(b))).as("'%s' vs '%s'", a.encode(), b.encode()).isEqualTo(bytes);
            assertThat(Integer.signum(b.compareTo(a))).isEqualTo(-bytes);
            assertThat(a.compareTo(b) == 0).isEqualTo(a.equals(b));
        }
    }

    @Test
    void decodeReadsBackWhatEncodeWrote() {
        for (int i = 0; i < 20_000; i++) {
            SourcePosition p = any();
            assertThat(SourcePosition.decode(p.encode())).as("'%s'", p.encode()).isEqualTo(p);
        }
    }

    @Test
    void refusesTextOutsideTheGrammarSayingWhatWasExpected() {
        String lsn = "lsn:00000000016b3748";
        assertThatThrownBy(() -> SourcePosition.decode("lsn:16B3748")).hasMessageContaining("16 lower-case hex digits");
        assertThatThrownBy(() -> SourcePosition.decode("lsn:00000000016B3748")).hasMessageContaining("16 lower-case hex digits");
        assertThatThrownBy(() -> SourcePosition.decode(lsn + "0")).hasMessageContaining("expected ':v2:'");
        assertThatThrownBy(() -> SourcePosition.decode(lsn + ":v2:3:0000000000000001")).hasMessageContaining("phase digit");
        assertThatThrownBy(() -> SourcePosition.decode(lsn + ":v2:2:1")).hasMessageContaining("'lsn:<16 hex>:v2:<phase>:<16 hex>'");
        assertThatThrownBy(() -> SourcePosition.decode(lsn + ":v3:2:0000000000000001"))
                .hasMessageContaining("encoding version '3'").hasMessageContaining("newer");
        assertThatThrownBy(() -> SourcePosition.decode("0/16B3748")).hasMessageContaining("'lsn:…' or 'cursor:…'");
        assertThatThrownBy(() -> SourcePosition.decode("~")).hasMessageContaining("before the '~'");
        assertThatThrownBy(() -> SourcePosition.decode(null)).hasMessageContaining("null");
        assertThatThrownBy(() -> new Watermark("a~")).hasMessageContaining("cannot end with '~'");
        assertThatThrownBy(() -> new After(new Unknown())).hasMessageContaining("after nothing");
    }

    @Test
    void aRepairSortsAfterWhatItFollowsAndBeforeTheNextPosition() {
        SourcePosition stored = new Lsn(0x16B3748L);
        SourcePosition repair = new After(stored);
        assertThat(repair).isGreaterThan(stored).isLessThan(new Lsn(0x16B3749L));
        assertThat(position(new After(repair))).isGreaterThan(repair).isLessThan(new Lsn(0x16B3749L));
        // a version 2 position of the same LSN extends the version 1 one, so the repair sorts after it too
        assertThat(repair).isGreaterThan(new Wal(0x16B3748L, Phase.STREAM, -1L));
        SourcePosition w = new Watermark("2026-01-02T03:04:05.000000000Z");
        assertThat(position(new After(w))).isGreaterThan(w).isLessThan(new Watermark("2026-01-02T03:04:05.000000001Z"));
    }

    @Test
    void watermarkPositionsSortBeforeWalPositionsAndUnknownBeforeAll() {
        assertThat(position(new Watermark("zzz"))).isLessThan(new Lsn(0)).isLessThan(new Wal(0, Phase.SNAPSHOT, 0));
        assertThat(position(new Unknown())).isLessThan(new Watermark("")).isLessThan(new Lsn(0))
                .isEqualByComparingTo(new Unknown());
    }

    @Test
    void runNumberedWatermarksRoundTripAndALaterRunWins() {
        Watermark v2 = new Watermark("2026-11-01T01:50:00.000000000", 3L);
        assertThat(v2.encode()).isEqualTo("cursor@0000000000000003:2026-11-01T01:50:00.000000000");
        assertThat(SourcePosition.decode(v2.encode())).isEqualTo(v2);
        assertThat(SourcePosition.decode(v2.encode() + "~")).isEqualTo(new After(v2));
        assertThat(SourcePosition.decode("cursor@0000000000000004:")).isEqualTo(new Watermark("", 4L));
        Watermark laterRunEarlierValue = new Watermark("2026-11-01T01:10:00.000000000", 4L);
        assertThat(position(laterRunEarlierValue)).as("a later run wins whatever the values").isGreaterThan(v2)
                .isGreaterThan(new After(v2));
        assertThat(position(new Watermark("2026-11-01T01:10:00.000000000", 3L))).isLessThan(v2);
        assertThat(position(new Watermark("zzz"))).as("every version 1 position sorts before version 2").isLessThan(v2);
        assertThat(position(new After(new Watermark("zzz")))).isLessThan(new Watermark("", 0L));
        assertThat(position(v2)).isLessThan(new Lsn(0));
        assertThat(v2.valueOnly()).isEqualTo(new Watermark("2026-11-01T01:50:00.000000000"));
        assertThatThrownBy(() -> SourcePosition.decode("cursor@00000000000000zz:x")).hasMessageContaining("hex");
        assertThatThrownBy(() -> SourcePosition.decode("cursor@0000000000000003x")).hasMessageContaining("'cursor@<16 hex run>:<value>'");
        assertThatThrownBy(() -> SourcePosition.decode("cursor@8000000000000000:x")).hasMessageContaining("'cursor@<16 hex run>:<value>'");
        assertThatThrownBy(() -> new Watermark("x", -1L)).hasMessageContaining("at least 0");
    }

    private static SourcePosition position(SourcePosition p) {
        return p;
    }

    /** Any position: mostly ones sharing LSNs and value prefixes, so that the interesting ties happen often. */
    private static SourcePosition any() {
        SourcePosition root = switch (RANDOM.nextInt(7)) {
            case 0 -> new Unknown();
            case 1, 2 -> new Lsn(lsn());
            case 3, 4 -> wal(lsn());
            default -> new Watermark(value(), RANDOM.nextBoolean() ? null : (long) RANDOM.nextInt(3));
        };
        return root instanceof Unknown ? root : after(root, RANDOM.nextInt(4) == 0 ? RANDOM.nextInt(3) + 1 : 0);
    }

    /** A position close to {@code p}: same root with other wrapping, same LSN in the other version, a longer value. */
    private static SourcePosition near(SourcePosition p) {
        SourcePosition root = p;
        while (root instanceof After a) {
            root = a.base();
        }
        SourcePosition other = root;
        if (root instanceof Lsn l && RANDOM.nextBoolean()) {
            other = wal(l.lsn());
        } else if (root instanceof Wal w) {
            other = RANDOM.nextBoolean() ? new Lsn(w.order()) : new Wal(w.order(), w.phase(), RANDOM.nextBoolean() ? w.change() : lsn());
        } else if (root instanceof Watermark w && RANDOM.nextBoolean()) {
            other = new Watermark(w.value() + value(), RANDOM.nextBoolean() ? w.run() : (Long) (long) RANDOM.nextInt(3));
        }
        return other instanceof Unknown ? other : after(other, RANDOM.nextInt(3));
    }

    private static SourcePosition after(SourcePosition p, int times) {
        SourcePosition q = p;
        for (int i = 0; i < times; i++) {
            q = new After(q);
        }
        return q;
    }

    private static Wal wal(long order) {
        Phase phase = Phase.values()[RANDOM.nextInt(3)];
        return new Wal(order, phase, phase == Phase.SNAPSHOT ? 0 : lsn());
    }

    private static long lsn() {
        return switch (RANDOM.nextInt(4)) {
            case 0 -> RANDOM.nextInt(8);
            case 1 -> 0x1000_0000L + RANDOM.nextInt(4);
            case 2 -> RANDOM.nextLong();
            default -> -1L - RANDOM.nextInt(3);
        };
    }

    /** Cursor-like text with the characters around '~' and beyond ASCII; never ending with '~'. */
    private static String value() {
        String[] pieces = {"2026-01-02T03:04:05.000000000Z", "|00000000000000000010", "0", "9", "a", "}", "~", "\u007f",
                "é", "€", "😀", " ", ":", "-", ""};
        StringBuilder b = new StringBuilder();
        int n = RANDOM.nextInt(4);
        for (int i = 0; i < n; i++) {
            b.append(pieces[RANDOM.nextInt(pieces.length)]);
        }
        while (!b.isEmpty() && b.charAt(b.length() - 1) == '~') {
            b.setLength(b.length() - 1);
        }
        return b.toString();
    }
}
