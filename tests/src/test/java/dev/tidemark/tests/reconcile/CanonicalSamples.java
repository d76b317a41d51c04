package dev.tidemark.tests.reconcile;

import dev.tidemark.jdbc.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * Random values of one {@link ValueKind} for {@link CanonicalTextSqlIT}, each with the identity under which equal
 * values meet and its literals in PostgreSQL and MariaDB (several shapes of one value where the engine accepts
 * several; none where the engine cannot hold it), edge values included: ±infinity, NaN, BC dates, years past 9999,
 * {@code 24:00}, MariaDB's ±838-hour {@code TIME}, long decimals, bytes.
 */
final class CanonicalSamples {
    /** One value: equal identities are equal values. */
    record Sample(Object identity, List<String> postgres, List<String> mariadb) {
    }

    private final Random r;

    CanonicalSamples(long seed) {
        this.r = new Random(seed);
    }

    /** PostgreSQL's and MariaDB's column type for the values of {@code kind}. */
    static String[] types(ValueKind kind) {
        return switch (kind) {
            case INTEGER -> new String[] {"bigint", "BIGINT"};
            case DECIMAL -> new String[] {"numeric", "DECIMAL(65,30)"};
            case BOOLEAN -> new String[] {"boolean", "BOOLEAN"};
            case TIMESTAMP -> new String[] {"timestamp(6)", "DATETIME(6)"};
            case TIMESTAMPTZ -> new String[] {"timestamptz(6)", "DATETIME(6)"};
            case DATE -> new String[] {"date", "DATE"};
            case TIME -> new String[] {"time(6)", "TIME(6)"};
            case BYTES -> new String[] {"bytea", "LONGBLOB"};
            case TEXT -> new String[] {"text", "LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"};
            case FLOAT -> throw new IllegalArgumentException("floating point is never checksummed in SQL");
        };
    }

    Sample next(ValueKind kind) {
        return switch (kind) {
            case INTEGER -> {
                long v = r.nextInt(3) == 0 ? r.nextInt(200) - 100 : r.nextLong();
                yield both(v, Long.toString(v));
            }
            case DECIMAL -> decimal();
            case BOOLEAN -> {
                boolean b = r.nextBoolean();
                yield new Sample(b, List.of(b ? "true" : "false", b ? "t" : "f"), List.of(b ? "1" : "0"));
            }
            case TIMESTAMP -> {
                if (r.nextInt(15) == 0) {
                    yield infinity();
                }
                LocalDateTime t = dateTime();
                yield new Sample(t, List.of(postgres(t.toLocalDate(), t.toLocalTime(), "")), mariadb(t) ? List.of(plain(t)) : List.of());
            }
            case TIMESTAMPTZ -> {
                if (r.nextInt(15) == 0) {
                    yield infinity();
                }
                LocalDateTime t = dateTime();
                List<String> pg = new ArrayList<>(List.of(postgres(t.toLocalDate(), t.toLocalTime(), "+00")));
                if (mariadb(t)) {
                    OffsetDateTime there = t.atOffset(ZoneOffset.UTC).withOffsetSameInstant(ZoneOffset.ofHoursMinutes(5, 30));
                    pg.add(postgres(there.toLocalDate(), there.toLocalTime(), "+05:30"));
                }
                yield new Sample(t, pg, mariadb(t) ? List.of(plain(t)) : List.of());
            }
            case DATE -> {
                if (r.nextInt(15) == 0) {
                    yield infinity();
                }
                LocalDate d = dateTime().toLocalDate();
                yield new Sample(d, List.of(postgres(d, null, "")), d.getYear() >= 1000 && d.getYear() <= 9999 ? List.of(d.toString()) : List.of());
            }
            case TIME -> time();
            case BYTES -> {
                byte[] b = new byte[r.nextInt(10)];
                r.nextBytes(b);
                String hex = HexFormat.of().formatHex(b);
                yield both(hex, hex);
            }
            case TEXT -> {
                StringBuilder b = new StringBuilder();
                String[] pieces = {"a", "Z", " ", "0", "~", ":", "\\", "\t", "'", "é", "😀", "1:a"};
                for (int n = r.nextInt(6); n > 0; n--) {
                    b.append(pieces[r.nextInt(pieces.length)]);
                }
                yield both(b.toString(), b.toString());
            }
            case FLOAT -> throw new IllegalArgumentException("floating point is never checksummed in SQL");
        };
    }

    private static Sample both(Object identity, String literal) {
        return new Sample(identity, List.of(literal), List.of(literal));
    }

    private Sample infinity() {
        String inf = r.nextBoolean() ? "infinity" : "-infinity";
        return new Sample(inf, List.of(inf), List.of());
    }

    private Sample decimal() {
        if (r.nextInt(15) == 0) {
            String special = new String[] {"NaN", "Infinity", "-Infinity"}[r.nextInt(3)];
            return new Sample(special, List.of(special), List.of());
        }
        int scale = r.nextInt(31);
        BigInteger unscaled = new BigInteger(1 + r.nextInt(scale + 100), r);
        BigDecimal d = new BigDecimal(r.nextBoolean() ? unscaled.negate() : unscaled, scale);
        String identity = d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
        List<String> pg = List.of(d.toPlainString(), d.setScale(scale + r.nextInt(4)).toPlainString());
        boolean fits = d.precision() - d.scale() <= 35;
        return new Sample(identity, pg, fits ? List.of(d.toPlainString()) : List.of());
    }

    private Sample time() {
        if (r.nextInt(4) == 0) { // MariaDB's TIME: an interval of up to ±838:59:59.999999
            long micros = (long) (r.nextDouble() * 2 * 838 * 3_600_000_000L) - 838 * 3_600_000_000L;
            long a = Math.abs(micros);
            String text = String.format("%s%02d:%02d:%02d.%06d", micros < 0 ? "-" : "", a / 3_600_000_000L, a / 60_000_000 % 60,
                    a / 1_000_000 % 60, a % 1_000_000);
            boolean ofDay = micros >= 0 && micros <= 86_400_000_000L;
            return new Sample(micros, ofDay ? List.of(text) : List.of(), List.of(text));
        }
        if (r.nextInt(15) == 0) {
            return new Sample(86_400_000_000L, List.of("24:00:00"), List.of("24:00:00"));
        }
        LocalTime t = LocalTime.ofNanoOfDay(r.nextLong(86_400_000_000L) * 1000);
        return new Sample(t.toNanoOfDay() / 1000, List.of(postgres(null, t, "")), List.of(postgres(null, t, "")));
    }

    private static boolean mariadb(LocalDateTime t) {
        return t.getYear() >= 1000 && t.getYear() <= 9998;
    }

    private static String plain(LocalDateTime t) {
        return postgres(t.toLocalDate(), t.toLocalTime(), "");
    }

    /** Micro precision over PostgreSQL's whole range (4713 BC to 294276 AD), mostly modern. */
    private LocalDateTime dateTime() {
        int year = switch (r.nextInt(5)) {
            case 0 -> -4712 + r.nextInt(4712 + 2);
            case 1 -> 9990 + r.nextInt(294276 - 9990);
            default -> 1900 + r.nextInt(200);
        };
        return LocalDate.of(year, 1, 1).plusDays(r.nextInt(365)).atTime(LocalTime.ofNanoOfDay(r.nextLong(86_400_000_000L) * 1000));
    }

    /** PostgreSQL's ISO text: unsigned years, {@code BC} last, the fraction without trailing zeros. */
    static String postgres(LocalDate d, LocalTime t, String offset) {
        StringBuilder b = new StringBuilder();
        if (d != null) {
            b.append(String.format("%04d-%02d-%02d", d.getYear() <= 0 ? 1 - d.getYear() : d.getYear(), d.getMonthValue(), d.getDayOfMonth()));
        }
        if (t != null) {
            b.append(d == null ? "" : " ").append(String.format("%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond()));
            if (t.getNano() != 0) {
                b.append(String.format(".%06d", t.getNano() / 1000).replaceFirst("0+$", ""));
            }
        }
        b.append(offset);
        if (d != null && d.getYear() <= 0) {
            b.append(" BC");
        }
        return b.toString();
    }
}
