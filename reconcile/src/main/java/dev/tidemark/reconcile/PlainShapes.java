package dev.tidemark.reconcile;

/**
 * The plain text shapes that the canonical-text fast paths ({@link CanonicalValues#ofText}, {@link CanonicalFeed})
 * accept without parsing, as checks on a region {@code s[from, to)} of text. Every shape accepts ASCII characters
 * only. Pure functions.
 */
final class PlainShapes {
    private PlainShapes() {
    }

    static boolean digits(CharSequence s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** {@code -?(0|[1-9][0-9]{0,17})}: fits a long, and is already canonical. */
    static boolean plainInteger(CharSequence s, int from, int to) {
        int i = from < to && s.charAt(from) == '-' ? from + 1 : from;
        if (i == to || to - i > 18) {
            return false;
        }
        if (s.charAt(i) == '0') {
            return to - i == 1 && i == from;
        }
        return digits(s, i, to);
    }

    /**
     * For {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?}: where its canonical text ends, without trailing fraction zeros (and
     * without the dot when no fraction digit is left); -1 for any other shape. See {@link #zero} for {@code -0}.
     */
    static int plainDecimalEnd(CharSequence s, int from, int to) {
        int start = from < to && s.charAt(from) == '-' ? from + 1 : from;
        int dot = -1;
        for (int i = start; i < to; i++) {
            char c = s.charAt(i);
            if (c == '.') {
                if (dot >= 0) {
                    return -1;
                }
                dot = i;
            } else if (c < '0' || c > '9') {
                return -1;
            }
        }
        int intEnd = dot < 0 ? to : dot;
        if (intEnd == start || (s.charAt(start) == '0' && intEnd - start > 1) || dot == to - 1) {
            return -1;
        }
        int end = to;
        if (dot >= 0) {
            while (s.charAt(end - 1) == '0') {
                end--;
            }
            if (end == dot + 1) {
                end = dot;
            }
        }
        return end;
    }

    /** Whether the plain decimal {@code s[from, end)} (as {@link #plainDecimalEnd} cut it) is {@code 0} or {@code -0}. */
    static boolean zero(CharSequence s, int from, int end) {
        int start = s.charAt(from) == '-' ? from + 1 : from;
        return end - start == 1 && s.charAt(start) == '0';
    }

    /** {@code YYYY-MM-DD} at {@code at}. */
    static boolean datePart(CharSequence s, int at) {
        return digits(s, at, at + 4) && s.charAt(at + 4) == '-' && digits(s, at + 5, at + 7) && s.charAt(at + 7) == '-'
                && digits(s, at + 8, at + 10);
    }

    /** {@code HH:MM:SS} at {@code at}. */
    static boolean timePart(CharSequence s, int at) {
        return digits(s, at, at + 2) && s.charAt(at + 2) == ':' && digits(s, at + 3, at + 5) && s.charAt(at + 5) == ':'
                && digits(s, at + 6, at + 8);
    }

    /** {@code YYYY-MM-DD[ T]HH:MM:SS} at the start of {@code s[from, to)}. */
    static boolean dateTimeHead(CharSequence s, int from, int to) {
        return to - from >= 19 && datePart(s, from) && (s.charAt(from + 10) == ' ' || s.charAt(from + 10) == 'T')
                && timePart(s, from + 11);
    }

    /** Where a date-time {@code s[from, to)} ends before a UTC suffix ({@code Z}, {@code +00}, {@code +00:00}), if any. */
    static int beforeUtc(CharSequence s, int from, int to) {
        int n = to - from;
        if (s.charAt(to - 1) == 'Z') {
            return to - 1;
        }
        if (n >= 22 && s.charAt(to - 3) == '+' && s.charAt(to - 2) == '0' && s.charAt(to - 1) == '0') {
            return to - 3;
        }
        if (n >= 25 && s.charAt(to - 6) == '+' && s.charAt(to - 5) == '0' && s.charAt(to - 4) == '0' && s.charAt(to - 3) == ':'
                && s.charAt(to - 2) == '0' && s.charAt(to - 1) == '0') {
            return to - 6;
        }
        return to;
    }

    /** An optional fraction {@code s[from, end)}: nothing, or a dot and one to nine digits. */
    static boolean fraction(CharSequence s, int from, int end) {
        if (from == end) {
            return true;
        }
        int digits = end - from - 1;
        return s.charAt(from) == '.' && digits >= 1 && digits <= 9 && digits(s, from + 1, end);
    }

    /** Whether a fraction {@code s[from, end)} that {@link #fraction} accepted has a non-zero digit past the sixth. */
    static boolean nanos(CharSequence s, int from, int end) {
        for (int i = from + 7; i < end; i++) {
            if (s.charAt(i) != '0') {
                return true;
            }
        }
        return false;
    }
}
