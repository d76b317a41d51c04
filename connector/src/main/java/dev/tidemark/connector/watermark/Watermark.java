package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.CursorValue;

import java.util.Objects;

/**
 * A position in cursor order: the {@link CursorValue} of the primary column and, for {@link Cursor.TimestampId}, the
 * tie-break id.
 * A null {@code tieBreak} in a timestamp+id bound means "every id at this timestamp" (an upper bound cut by the
 * settle delay) or "no id yet" (a lower bound moved down by the overlap).
 *
 * <p>Ordering: by primary value, then tie-break (null ranks above every id: it covers them all).
 */
public record Watermark(CursorValue primary, Long tieBreak) implements Comparable<Watermark> {
    public Watermark {
        Objects.requireNonNull(primary, "primary");
    }

    public static Watermark of(CursorValue primary) {
        return new Watermark(primary, null);
    }

    /** The position text: {@code <primary>} or {@code <primary>|<id zero-padded>}; sorts as text in cursor order. */
    public String render() {
        return tieBreak == null ? primary.render() : primary.render() + "|" + CursorValue.Number.renderLong(tieBreak);
    }

    /** Exact reversible text for the control table's in-progress columns. */
    public String serialize() {
        return (tieBreak == null ? "" : tieBreak.toString()) + "|" + primary.serialize();
    }

    public static Watermark deserialize(String text) {
        int bar = text.indexOf('|');
        if (bar < 0) {
            throw new IllegalArgumentException("not a serialised watermark: '" + text + "'");
        }
        String id = text.substring(0, bar);
        return new Watermark(CursorValue.deserialize(text.substring(bar + 1)), id.isEmpty() ? null : Long.parseLong(id));
    }

    @Override
    public int compareTo(Watermark o) {
        int c = primary.compareTo(o.primary);
        if (c != 0) {
            return c;
        }
        if (Objects.equals(tieBreak, o.tieBreak)) {
            return 0;
        }
        if (tieBreak == null) {
            return 1;
        }
        return o.tieBreak == null ? -1 : Long.compare(tieBreak, o.tieBreak);
    }

    @Override
    public String toString() {
        return tieBreak == null ? primary.render() : primary.render() + " id " + tieBreak;
    }
}
