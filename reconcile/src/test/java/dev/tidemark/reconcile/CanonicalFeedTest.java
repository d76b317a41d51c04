package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The streaming normalisation ({@link CanonicalFeed}, used by segment checksums) must hash every input exactly as
 * {@link CanonicalValues#ofText} (used by row comparisons, lookups and keys) normalises it; and the normalisation
 * itself must make equal values equal across engines.
 */
class CanonicalFeedTest {

    private static long fed(String text, ValueKind kind) {
        RowHash h = new RowHash().begin();
        CanonicalFeed.feed("<<" + text + ">>", 2, 2 + text.length(), kind, h);
        return h.end();
    }

    private static long viaText(String text, ValueKind kind) {
        RowHash h = new RowHash().begin();
        h.value(CanonicalValues.ofText(text, kind));
        return h.end();
    }

    private static final String[] SAMPLES = {
            "", "0", "-0", "00", "007", "1", "-1", "12", "+5", "123456789012345678", "1234567890123456789", "9223372036854775807",
            "3.0", "1e3", "abc", " 12", "12 ",
            "0.0", "0.000", "-0.00", "12.50", "12.5", "100", "100.00", "-12.3400", ".5", "5.", "1.2.3", "0.10000000", "1E+2",
            "NaN", "Infinity", "-Infinity",
            "t", "f", "true", "false", "TRUE", "True", "1", "0", "yes", "T",
            "2026-01-02 03:04:05+00", "2026-01-02 03:04:05.5+00", "2026-01-02 03:04:05.000007+00", "2026-01-02 03:04:05.123456789+00",
            "2026-01-02 03:04:05.123456000+00", "2026-01-02 03:04:05.1234567+00:00", "2026-01-02T03:04:05.000007Z",
            "2026-01-02T03:04:05Z", "2026-01-02 03:04:05", "2026-01-02 03:04:05.000007", "2026-01-02T03:04:05.000007",
            "2026-01-02 08:34:05.000007+05:30", "2026-01-02T05:04:05.000007+02:00", "2026-01-02 03:04", "2026-01-02",
            "2026-13-02 03:04:05", "2026-01-02 03:04:05.", "2026-01-02 03:04:05.1234567890", "2026-01-02X03:04:05",
            "12026-01-02 03:04:05+00", "2026-01-02 03:04:05 BC", "infinity", "-infinity",
            "03:04:05", "03:04:05.5", "03:04:05.000007", "03:04:05.123456789", "3:04:05", "03:04",
            "\\x0a0B", "\\x", "\\xZZ", "0a0b", "\\xİ",
            "Zürich ✓ 東京 😀", "a\u001Fb", "\u0000", "x".repeat(300)};

    @Test
    void feedingHashesExactlyAsTheCanonicalText() {
        for (ValueKind kind : ValueKind.values()) {
            for (String s : SAMPLES) {
                assertThat(fed(s, kind)).as("%s of '%s'", kind, s).isEqualTo(viaText(s, kind));
            }
        }
    }

    @Test
    void feedingHashesExactlyAsTheCanonicalTextForGeneratedShapes() {
        Random random = new Random(42);
        String alphabet = "0123456789-+.:TZ tfrue\\xaAbB";
        List<String> inputs = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder();
            int n = random.nextInt(32);
            for (int j = 0; j < n; j++) {
                b.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            inputs.add(b.toString());
            // shapes close to real ones, with random digits and fractions
            inputs.add(String.format("%04d-%02d-%02d%s%02d:%02d:%02d%s%s", random.nextInt(10000), random.nextInt(14), random.nextInt(33),
                    random.nextBoolean() ? " " : "T", random.nextInt(25), random.nextInt(61), random.nextInt(61),
                    random.nextBoolean() ? "" : "." + Long.toString(Math.abs(random.nextLong())).substring(0, 1 + random.nextInt(9)),
                    new String[] {"", "Z", "+00", "+00:00", "+01:00", "-03"}[random.nextInt(6)]));
            inputs.add((random.nextBoolean() ? "-" : "") + random.nextInt(1000) + (random.nextBoolean() ? "" : "." + "0".repeat(random.nextInt(3))
                    + random.nextInt(100) + "0".repeat(random.nextInt(4))));
        }
        for (ValueKind kind : ValueKind.values()) {
            for (String s : inputs) {
                assertThat(fed(s, kind)).as("%s of '%s'", kind, s).isEqualTo(viaText(s, kind));
            }
        }
    }

    @Test
    void equalValuesInEachEnginesTextFormAreEqual() {
        // numeric scale
        assertThat(CanonicalValues.ofText("12.50000000", ValueKind.DECIMAL)).isEqualTo(CanonicalValues.ofText("12.5", ValueKind.DECIMAL))
                .isEqualTo(CanonicalValues.ofText("12.500000000000", ValueKind.DECIMAL)).isEqualTo("12.5");
        assertThat(CanonicalValues.ofText("0.00", ValueKind.DECIMAL)).isEqualTo("0");
        assertThat(CanonicalValues.ofText("100.00", ValueKind.DECIMAL)).isEqualTo("100");
        // timestamp precision and zone: PostgreSQL (UTC session and another zone), SQLite, MariaDB (UTC, no zone)
        String c = "2026-01-02T03:04:05.000007Z";
        assertThat(CanonicalValues.ofText("2026-01-02 03:04:05.000007+00", ValueKind.TIMESTAMPTZ)).isEqualTo(c);
        assertThat(CanonicalValues.ofText("2026-01-02 08:34:05.000007+05:30", ValueKind.TIMESTAMPTZ)).isEqualTo(c);
        assertThat(CanonicalValues.ofText("2026-01-02T03:04:05.000007Z", ValueKind.TIMESTAMPTZ)).isEqualTo(c);
        assertThat(CanonicalValues.ofText("2026-01-02 03:04:05.000007", ValueKind.TIMESTAMPTZ)).isEqualTo(c);
        assertThat(CanonicalValues.ofText("2026-01-02 03:04:05.5+00", ValueKind.TIMESTAMPTZ))
                .isEqualTo(CanonicalValues.ofText("2026-01-02T03:04:05.500000Z", ValueKind.TIMESTAMPTZ));
        // booleans
        assertThat(CanonicalValues.ofText("t", ValueKind.BOOLEAN)).isEqualTo(CanonicalValues.ofText("1", ValueKind.BOOLEAN)).isEqualTo("true");
        // bytes: PostgreSQL's hex output and JDBC bytes
        assertThat(CanonicalValues.ofText("\\x0A0b", ValueKind.BYTES)).isEqualTo("0a0b");
    }

    @Test
    void differencesPastTheSixthDecimalOrInAMicrosecondRemain() {
        assertThat(CanonicalValues.ofText("1.23456789", ValueKind.DECIMAL)).isNotEqualTo(CanonicalValues.ofText("1.23456780", ValueKind.DECIMAL));
        assertThat(CanonicalValues.ofText("1.2345678", ValueKind.DECIMAL)).isNotEqualTo(CanonicalValues.ofText("1.2345679", ValueKind.DECIMAL));
        assertThat(CanonicalValues.ofText("2026-01-02 03:04:05.000007+00", ValueKind.TIMESTAMPTZ))
                .isNotEqualTo(CanonicalValues.ofText("2026-01-02 03:04:05.000008+00", ValueKind.TIMESTAMPTZ));
    }

    private static long viaBytes(String text, ValueKind kind, boolean copy) {
        String field = copy ? text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n") : text;
        byte[] d = ("ab" + field + "cd").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int to = d.length - 2;
        RowHash h = new RowHash().begin();
        FieldBytes.feed(d, 2, to, kind, h, new AsciiView(), copy);
        return h.end();
    }

    @Test
    void feedingBytesHashesExactlyAsFeedingTheText() {
        List<String> inputs = new ArrayList<>(List.of(SAMPLES));
        inputs.addAll(List.of("\\x0A0b", "a\\b", "tab\there", "line\nnext", "\\x", "é\\x41"));
        Random random = new Random(11);
        String alphabet = "0123456789-+.:TZ tfrue\\xaAbBé";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder();
            for (int j = random.nextInt(30); j > 0; j--) {
                b.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            inputs.add(b.toString());
            inputs.add(String.format("%04d-%02d-%02d%s%02d:%02d:%02d.%d%s", random.nextInt(10000), random.nextInt(13), random.nextInt(32),
                    random.nextBoolean() ? " " : "T", random.nextInt(24), random.nextInt(60), random.nextInt(60), random.nextInt(1_000_000_000),
                    new String[] {"", "Z", "+00", "+00:00", "+02"}[random.nextInt(5)]));
        }
        for (ValueKind kind : ValueKind.values()) {
            for (String s : inputs) {
                long expected = fed(s, kind);
                assertThat(viaBytes(s, kind, false)).as("%s of '%s'", kind, s).isEqualTo(expected);
                assertThat(viaBytes(s, kind, true)).as("%s of COPY field '%s'", kind, s).isEqualTo(expected);
            }
        }
    }

    @Test
    void bulkAndAsciiFeedingHashLikeOneUnitAtATime() {
        Random random = new Random(7);
        for (int round = 0; round < 2000; round++) {
            int values = 1 + random.nextInt(6);
            RowHash bulk = new RowHash().begin();
            RowHash single = new RowHash().begin();
            RowHash ascii = new RowHash().begin();
            for (int v = 0; v < values; v++) {
                StringBuilder b = new StringBuilder();
                for (int i = random.nextInt(12); i > 0; i--) {
                    b.append((char) (32 + random.nextInt(95)));
                }
                String text = b.toString();
                bulk.chars(text);
                bulk.endValue();
                for (int i = 0; i < text.length(); i++) {
                    single.ch(text.charAt(i));
                }
                single.endValue();
                byte[] bytes = ("xx" + text + "yy").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                if (!ascii.asciiBytes(bytes, 2, 2 + text.length(), true)) {
                    ascii.chars(text); // had a backslash: fed nothing, so the text path takes over
                }
                ascii.endValue();
            }
            assertThat(bulk.end()).isEqualTo(single.end()).isEqualTo(ascii.end());
        }
        RowHash h = new RowHash().begin();
        h.chars("ab");
        long before = new RowHash().begin().end();
        assertThat(h.asciiBytes("é".getBytes(java.nio.charset.StandardCharsets.UTF_8), 0, 2, false)).isFalse();
        RowHash ref = new RowHash().begin();
        ref.chars("ab");
        assertThat(h.end()).as("a refused feed leaves the state as it was").isEqualTo(ref.end()).isNotEqualTo(before);
    }

    @Test
    void nullAndEmptyTextHashDifferentlyAndValuesDoNotRunTogether() {
        assertThat(RowHash.of(new String[] {null})).isNotEqualTo(RowHash.of(new String[] {""}));
        assertThat(RowHash.of(new String[] {"", null})).isNotEqualTo(RowHash.of(new String[] {null, ""}));
        assertThat(RowHash.of(new String[] {"ab", "c"})).isNotEqualTo(RowHash.of(new String[] {"a", "bc"}));
        assertThat(RowHash.of(new String[] {"1", "x"})).isEqualTo(RowHash.of(new String[] {"1", "x"}));
    }
}
