package dev.tidemark.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.jdbc.TemporalText;
import dev.tidemark.jdbc.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Issue 11, item 1, as a property of the pure canonicalisation: random values of each kind, each printed in every
 * text shape an engine prints it in (PostgreSQL's text output, MariaDB's, the sink's SQLite text), including the edge
 * values (±infinity, NaN, -0.0, BC dates, years past 9999, {@code 24:00}, MariaDB's ±838-hour {@code TIME}, long
 * decimals, bytes). Equal values give equal canonical text whatever their shape; distinct values give distinct text;
 * no value's text is NULL; and the streaming feeds hash each shape exactly as its canonical text. Fixed seed;
 * {@code -Dtidemark.canonical.seed=random} (or a number) runs another (the seed is in every failure message).
 */
class CanonicalTextPropertyTest {
    static final long SEED = seed();
    /** Values per kind; {@code -Dtidemark.canonical.values=N} for a longer run. */
    static final int VALUES = Integer.getInteger("tidemark.canonical.values", 3000);

    private static long seed() {
        String s = System.getProperty("tidemark.canonical.seed", "20261130");
        return s.equals("random") ? new Random().nextLong() : Long.parseLong(s);
    }

    /** One value: a key under which equal values meet, and the texts engines print for it. */
    record Sample(Object identity, List<String> shapes) {
    }

    @Test
    void equalValuesShareTextAndDistinctValuesNever() {
        Random random = new Random(SEED);
        for (ValueKind kind : ValueKind.values()) {
            Map<String, Object> byText = new HashMap<>();
            for (int i = 0; i < VALUES; i++) {
                Sample s = sample(kind, random);
                String first = CanonicalValues.ofText(s.shapes().get(0), kind);
                for (String shape : s.shapes()) {
                    String text = CanonicalValues.ofText(shape, kind);
                    assertThat(text).as("seed %d: %s '%s' is not NULL", SEED, kind, shape).isNotNull();
                    assertThat(text).as("seed %d: %s shapes %s of one value", SEED, kind, s.shapes()).isEqualTo(first);
                    assertThat(fed(shape, kind)).as("seed %d: %s '%s' fed", SEED, kind, shape).isEqualTo(hashOf(text));
                }
                Object before = byText.putIfAbsent(first, s.identity());
                if (before != null) {
                    assertThat(before).as("seed %d: %s values with the same text '%s'", SEED, kind, first).isEqualTo(s.identity());
                }
            }
        }
    }

    @Test
    void edgeValuesAreDistinctFromTheirNeighboursAndFromNull() {
        String[][] distinct = {
            {"TIMESTAMP", "infinity", "-infinity", "2020-01-01 00:00:00", "0044-03-15 10:00:00 BC", "0044-03-15 10:00:00", "0001-01-01 00:00:00 BC",
                "12345-06-07 01:02:03.000004", "2345-06-07 01:02:03.000004"},
            {"TIMESTAMPTZ", "infinity", "-infinity", "0044-03-15 10:00:00+00 BC", "0044-03-15 10:00:00+00", "12345-06-07 01:02:03+00"},
            {"DATE", "infinity", "-infinity", "0044-03-15 BC", "0044-03-15", "0001-01-01 BC", "0001-01-01", "12345-06-07", "2345-06-07"},
            {"TIME", "24:00:00", "00:00:00", "-01:00:00", "01:00:00", "100:00:00", "10:00:00"},
            {"FLOAT", "0", "-0", "NaN", "Infinity", "-Infinity", "1e308"},
            {"DECIMAL", "NaN", "Infinity", "-Infinity", "0", "123456789012345678901234567890.000000000000000000001",
                "123456789012345678901234567890"},
        };
        for (String[] row : distinct) {
            ValueKind kind = ValueKind.valueOf(row[0]);
            List<String> texts = new ArrayList<>();
            for (int i = 1; i < row.length; i++) {
                String t = CanonicalValues.ofText(row[i], kind);
                assertThat(t).as("%s '%s'", kind, row[i]).isNotNull();
                texts.add(t);
                RowHash h = new RowHash().begin();
                h.nullValue();
                assertThat(fed(row[i], kind)).as("%s '%s' against NULL", kind, row[i]).isNotEqualTo(h.end());
            }
            assertThat(texts).as("%s %s", kind, texts).doesNotHaveDuplicates();
        }
        assertThat(CanonicalValues.ofText("0044-03-15 10:00:00+00 BC", ValueKind.TIMESTAMPTZ)).isEqualTo("-0043-03-15T10:00:00.000000Z");
        assertThat(CanonicalValues.ofText("12345-06-07", ValueKind.DATE)).isEqualTo("+12345-06-07");
        assertThat(CanonicalValues.ofText("Inf", ValueKind.FLOAT)).isEqualTo(CanonicalValues.ofText("Infinity", ValueKind.FLOAT));
        assertThat(CanonicalValues.ofText("-1:02:03.5", ValueKind.TIME)).isEqualTo("-01:02:03.500000");
    }

    private static long fed(String text, ValueKind kind) {
        RowHash h = new RowHash().begin();
        CanonicalFeed.feed(text, 0, text.length(), kind, h);
        long viaText = h.end();
        byte[] d = text.getBytes(StandardCharsets.UTF_8);
        RowHash b = new RowHash().begin();
        FieldBytes.feed(d, 0, d.length, kind, b, new AsciiView(), false);
        assertThat(b.end()).as("%s '%s' fed as bytes", kind, text).isEqualTo(viaText);
        return viaText;
    }

    private static long hashOf(String canonical) {
        RowHash h = new RowHash().begin();
        h.value(canonical);
        return h.end();
    }

    static Sample sample(ValueKind kind, Random r) {
        return switch (kind) {
            case INTEGER -> {
                long v = r.nextInt(4) == 0 ? r.nextInt(2000) - 1000 : r.nextLong();
                yield new Sample(v, Math.abs(v) < 1_000_000 ? List.of(Long.toString(v), v + ".0") : List.of(Long.toString(v)));
            }
            case FLOAT -> floating(r);
            case DECIMAL -> decimal(r);
            case BOOLEAN -> {
                boolean b = r.nextBoolean();
                yield new Sample(b, b ? List.of("t", "true", "1", "TRUE") : List.of("f", "false", "0", "FALSE"));
            }
            case TIMESTAMP -> {
                if (r.nextInt(20) == 0) {
                    String inf = r.nextBoolean() ? "infinity" : "-infinity";
                    yield new Sample(inf, List.of(inf));
                }
                LocalDateTime t = dateTime(r);
                List<String> shapes = new ArrayList<>(List.of(postgres(t.toLocalDate(), t.toLocalTime(), ""), TemporalText.localDateTime(t)));
                if (t.getYear() >= 1 && t.getYear() <= 9999) {
                    shapes.add(t.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS"))); // MariaDB
                }
                yield new Sample(t, shapes);
            }
            case TIMESTAMPTZ -> {
                if (r.nextInt(20) == 0) {
                    String inf = r.nextBoolean() ? "infinity" : "-infinity";
                    yield new Sample(inf, List.of(inf));
                }
                LocalDateTime t = dateTime(r);
                Instant i = t.toInstant(ZoneOffset.UTC);
                List<String> shapes = new ArrayList<>(List.of(postgres(t.toLocalDate(), t.toLocalTime(), "+00"), TemporalText.instant(i)));
                if (t.getYear() >= 2 && t.getYear() <= 9998) {
                    OffsetDateTime there = i.atOffset(ZoneOffset.ofHoursMinutes(5, 30));
                    shapes.add(postgres(there.toLocalDate(), there.toLocalTime(), "+05:30"));
                    shapes.add(DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(i.atOffset(ZoneOffset.ofHours(-2))));
                }
                yield new Sample(i, shapes);
            }
            case DATE -> {
                if (r.nextInt(20) == 0) {
                    String inf = r.nextBoolean() ? "infinity" : "-infinity";
                    yield new Sample(inf, List.of(inf));
                }
                LocalDate d = dateTime(r).toLocalDate();
                yield new Sample(d, List.of(postgres(d, null, ""), d.toString()));
            }
            case TIME -> time(r);
            case BYTES -> {
                byte[] b = new byte[r.nextInt(12)];
                r.nextBytes(b);
                String hex = HexFormat.of().formatHex(b);
                yield new Sample(hex, List.of("\\x" + hex, "\\x" + hex.toUpperCase()));
            }
            case TEXT -> {
                StringBuilder b = new StringBuilder();
                String alphabet = "aZ 0~:\\\t\n'é😀";
                for (int n = r.nextInt(8); n > 0; n--) {
                    b.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0, r.nextInt(alphabet.codePointCount(0, alphabet.length())))));
                }
                yield new Sample(b.toString(), List.of(b.toString()));
            }
        };
    }

    private static Sample floating(Random r) {
        double d = switch (r.nextInt(8)) {
            case 0 -> new double[] {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE,
                Double.MAX_VALUE}[r.nextInt(7)];
            case 1 -> r.nextInt(100) / 4.0;
            default -> Double.longBitsToDouble(r.nextLong());
        };
        List<String> shapes = new ArrayList<>(List.of(Double.toString(d)));
        if (Double.isNaN(d)) {
            shapes.add("NaN");
        } else if (Double.isInfinite(d)) {
            shapes.addAll(d > 0 ? List.of("Infinity", "Inf") : List.of("-Infinity", "-Inf")); // PostgreSQL, SQLite
        } else if (Double.doubleToRawLongBits(d) == Double.doubleToRawLongBits(-0.0)) {
            shapes.add("-0"); // PostgreSQL
        } else {
            shapes.add(new BigDecimal(d).toString());
            shapes.add(new BigDecimal(d).toPlainString());
        }
        // Double.equals: NaN is NaN, -0.0 is not 0.0 (lossless)
        return new Sample(Double.isNaN(d) ? "NaN" : Double.valueOf(d), shapes);
    }

    private static Sample decimal(Random r) {
        if (r.nextInt(20) == 0) {
            String special = new String[] {"NaN", "Infinity", "-Infinity"}[r.nextInt(3)];
            return new Sample(special, List.of(special));
        }
        BigInteger unscaled = new BigInteger(1 + r.nextInt(r.nextBoolean() ? 40 : 200), r);
        BigDecimal d = new BigDecimal(r.nextBoolean() ? unscaled.negate() : unscaled, r.nextInt(30));
        BigDecimal padded = d.setScale(d.scale() + r.nextInt(5));
        return new Sample(d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString(), List.of(d.toPlainString(), padded.toPlainString(), d.toString()));
    }

    private static Sample time(Random r) {
        if (r.nextInt(4) == 0) { // MariaDB's TIME: an interval of up to ±838:59:59.999999
            long micros = (long) (r.nextDouble() * 2 * 838 * 3600_000_000L) - 838 * 3600_000_000L;
            long a = Math.abs(micros);
            String text = String.format("%s%02d:%02d:%02d.%06d", micros < 0 ? "-" : "", a / 3600_000_000L, a / 60_000_000 % 60, a / 1_000_000 % 60,
                    a % 1_000_000);
            return new Sample(micros, List.of(text, text.replaceFirst("\\.?0+$", "")));
        }
        if (r.nextInt(20) == 0) {
            return new Sample(24 * 3600_000_000L, List.of("24:00:00", "24:00:00.000000"));
        }
        LocalTime t = LocalTime.ofNanoOfDay(r.nextLong(86_400_000_000L) * 1000);
        return new Sample(t.toNanoOfDay() / 1000, List.of(postgres(null, t, ""), TemporalText.localTime(t), t.toString()));
    }

    /** A random date-time with micro precision over PostgreSQL's whole range (4713 BC to 294276 AD), mostly modern. */
    private static LocalDateTime dateTime(Random r) {
        int year = switch (r.nextInt(5)) {
            case 0 -> -4712 + r.nextInt(4712 + 2);
            case 1 -> 9990 + r.nextInt(294276 - 9990);
            default -> 1900 + r.nextInt(200);
        };
        LocalDate d = LocalDate.of(year, 1, 1).plusDays(r.nextInt(365));
        return d.atTime(LocalTime.ofNanoOfDay(r.nextLong(86_400_000_000L) * 1000));
    }

    /** PostgreSQL's ISO output: unsigned years, {@code BC} after everything, the fraction without trailing zeros. */
    static String postgres(LocalDate d, LocalTime t, String offset) {
        StringBuilder b = new StringBuilder();
        if (d != null) {
            int year = d.getYear() <= 0 ? 1 - d.getYear() : d.getYear();
            b.append(String.format("%04d-%02d-%02d", year, d.getMonthValue(), d.getDayOfMonth()));
        }
        if (t != null) {
            b.append(d == null ? "" : " ").append(String.format("%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond()));
            int micros = t.getNano() / 1000;
            if (micros != 0) {
                b.append(String.format(".%06d", micros).replaceFirst("0+$", ""));
            }
        }
        b.append(offset);
        if (d != null && d.getYear() <= 0) {
            b.append(" BC");
        }
        return b.toString();
    }
}
