package dev.tidemark.connector.watermark;

/**
 * The cursor range one run reads. Incremental windows are {@code (lower, upper]}: the stored watermark (moved down by
 * the overlap) excluded, the upper bound fixed before reading included. Tumbling windows given on the command line
 * are {@code [start, end)}, so consecutive windows tile without gap or overlap. A null {@code lower} is the first
 * run: everything up to the upper bound.
 */
record Window(Watermark lower, boolean lowerInclusive, Watermark upper, boolean upperInclusive) {

    static Window incremental(Watermark lower, Watermark upper) {
        return new Window(lower, false, upper, true);
    }

    static Window tumbling(Watermark start, Watermark end) {
        return new Window(start, true, end, false);
    }

    String describe() {
        return (lower == null ? "(-∞" : (lowerInclusive ? "[" : "(") + lower) + ", " + upper + (upperInclusive ? "]" : ")");
    }

    String serializeLower() {
        return lower == null ? "" : lower.serialize();
    }
}
