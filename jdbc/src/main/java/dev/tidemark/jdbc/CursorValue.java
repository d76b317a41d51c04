package dev.tidemark.jdbc;


import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.time.temporal.Temporal;
import java.util.Optional;

/**
 * One value of a cursor column, in the column's own type and precision: what the window query binds, what the
 * control table stores, and what an event's position is rendered from. Values of one column are of one kind and
 * totally ordered; {@link #render()} sorts as text in the same order (fixed-width ISO-8601 with nine fraction
 * digits in UTC for zoned values, zero-padded numbers), so the sink's string comparison of positions works.
 */
public sealed interface CursorValue extends Comparable<CursorValue> {
    DateTimeFormatter NANOS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS");

    /** Sortable text for {@link dev.tidemark.event.SourcePosition.Watermark}. */
    String render();

    /** Exact, reversible text: {@code kind:value} ({@link #deserialize}). */
    default String serialize() {
        if (this instanceof Number n) {
            return "number:" + n.value;
        }
        if (this instanceof Text t) {
            return "text:" + t.raw;
        }
        return (this instanceof Zoned ? "zoned:" : this instanceof Local ? "local:" : "date:") + render();
    }

    /** This value moved down by {@code d} (timestamps) — bounds move down only, which re-reads rather than skips. */
    CursorValue minus(Duration d);

    /** How far {@code earlier} lies below this value as a duration; empty for ids and unparsable text. */
    Optional<Duration> durationAbove(CursorValue earlier);

    /** A zoned or local date-time: moved by exact durations, and as far above another as the time between them. */
    sealed interface TimePoint<T extends Temporal> extends CursorValue {
        /** The point in time. */
        T value();

        /** The same kind of value at {@code other}. */
        TimePoint<T> at(T other);

        @Override
        @SuppressWarnings("unchecked")
        default CursorValue minus(Duration d) {
            return at((T) value().minus(d));
        }

        @Override
        default Optional<Duration> durationAbove(CursorValue earlier) {
            return Optional.of(Duration.between(((TimePoint<?>) earlier).value(), value()));
        }
    }

    /** A {@code timestamp with time zone} value. */
    record Zoned(Instant value) implements TimePoint<Instant> {
        @Override
        public String render() {
            return NANOS.format(LocalDateTime.ofInstant(value, ZoneOffset.UTC)) + "Z";
        }

        @Override
        public Zoned at(Instant other) {
            return new Zoned(other);
        }
    }

    /** A {@code timestamp without time zone} value (wall-clock time of the writers' zone). */
    record Local(LocalDateTime value) implements TimePoint<LocalDateTime> {
        @Override
        public String render() {
            return NANOS.format(value);
        }

        @Override
        public Local at(LocalDateTime other) {
            return new Local(other);
        }
    }

    /** A {@code date} value; durations are applied in whole days, rounded up. */
    record Day(LocalDate value) implements CursorValue {
        @Override
        public String render() {
            return value.toString();
        }

        @Override
        public CursorValue minus(Duration d) {
            long days = d.toDays() + (d.minusDays(d.toDays()).isZero() ? 0 : 1);
            return new Day(value.minusDays(days));
        }

        @Override
        public Optional<Duration> durationAbove(CursorValue earlier) {
            return Optional.of(Duration.ofDays(ChronoUnit.DAYS.between(((Day) earlier).value, value)));
        }
    }

    /** An integer value (an ever-increasing id, or the tie-break id). */
    record Number(long value) implements CursorValue {
        @Override
        public String render() {
            return renderLong(value);
        }

        @Override
        public CursorValue minus(Duration d) {
            throw new IllegalArgumentException("an id cursor moves by a count of ids, not by a duration (" + Durations.format(d) + ")");
        }

        /** This id moved down by {@code n}, saturating at {@link Long#MIN_VALUE}. */
        public Number minus(long n) {
            return new Number(value - n > value ? Long.MIN_VALUE : value - n);
        }

        @Override
        public Optional<Duration> durationAbove(CursorValue earlier) {
            return Optional.empty();
        }

        /** Zero-padded to 20 digits; negatives sort before every non-negative value and among themselves. */
        public static String renderLong(long v) {
            return v >= 0 ? String.format("%020d", v) : "-" + String.format("%019d", v - Long.MIN_VALUE);
        }
    }

    /**
     * A date-time kept as text in the source (SQLite): the exact source text is what is compared and stored; it is
     * parsed only to render positions and to subtract durations, and written back in the column's own shape.
     */
    record Text(String raw) implements CursorValue {
        @Override
        public String render() {
            return TextTime.parse(raw).map(t -> {
                Temporal v = t.value();
                if (v instanceof Instant i) {
                    return new Zoned(i).render();
                }
                if (v instanceof LocalDateTime l) {
                    return new Local(l).render();
                }
                return v.toString();
            }).orElse(raw);
        }

        @Override
        public CursorValue minus(Duration d) {
            TextTime t = TextTime.parse(raw).orElseThrow(() -> new IllegalArgumentException(
                    "cursor value '" + raw + "' is not a date-time text, so it cannot be moved by " + Durations.format(d)));
            Temporal v = t.value();
            Temporal moved = v instanceof LocalDate ld ? ((Day) new Day(ld).minus(d)).value() : v.minus(d);
            return new Text(TextTime.format(moved, t.shape()));
        }

        @Override
        public Optional<Duration> durationAbove(CursorValue earlier) {
            Optional<TextTime> a = TextTime.parse(raw);
            Optional<TextTime> b = TextTime.parse(((Text) earlier).raw);
            if (a.isEmpty() || b.isEmpty() || a.get().value().getClass() != b.get().value().getClass()) {
                return Optional.empty();
            }
            Temporal x = a.get().value();
            Temporal y = b.get().value();
            return Optional.of(x instanceof LocalDate ? Duration.ofDays(ChronoUnit.DAYS.between(y, x)) : Duration.between(y, x));
        }
    }

    @Override
    default int compareTo(CursorValue other) {
        if (getClass() != other.getClass()) {
            throw new IllegalArgumentException("cannot compare cursor values of different kinds: " + serialize() + " and " + other.serialize());
        }
        if (this instanceof Zoned a) {
            return a.value.compareTo(((Zoned) other).value);
        }
        if (this instanceof Local a) {
            return a.value.compareTo(((Local) other).value);
        }
        if (this instanceof Day a) {
            return a.value.compareTo(((Day) other).value);
        }
        if (this instanceof Number a) {
            return Long.compare(a.value, ((Number) other).value);
        }
        // SQLite compares text as text: so must we
        return ((Text) this).raw.compareTo(((Text) other).raw);
    }

    /** Reverses {@link #serialize()}. */
    static CursorValue deserialize(String text) {
        int colon = text.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("not a serialised cursor value: '" + text + "'");
        }
        String v = text.substring(colon + 1);
        return switch (text.substring(0, colon)) {
            case "zoned" -> new Zoned(LocalDateTime.parse(v.substring(0, v.length() - 1)).toInstant(ZoneOffset.UTC));
            case "local" -> new Local(LocalDateTime.parse(v));
            case "date" -> new Day(LocalDate.parse(v));
            case "number" -> new Number(Long.parseLong(v));
            case "text" -> new Text(v);
            default -> throw new IllegalArgumentException("unknown cursor value kind in '" + text + "'");
        };
    }
}
