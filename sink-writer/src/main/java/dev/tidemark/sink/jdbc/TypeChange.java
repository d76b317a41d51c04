package dev.tidemark.sink.jdbc;

import dev.tidemark.event.ColumnType;
import java.util.List;
import java.util.Objects;

/**
 * Decides whether a column may move from the type it was created with to the type new events declare. Widening
 * that loses nothing is allowed (smaller to larger integers, float to double, more decimal digits on both sides of
 * the point); anything else (narrowing, a different kind of value) is refused so nothing is ever dropped silently.
 */
final class TypeChange {
    private static final List<String> INTEGERS = List.of("int8", "int16", "int32", "int64");

    /** The verdict. */
    enum Verdict { SAME, WIDEN, REFUSE }

    private TypeChange() {
    }

    static Verdict between(ColumnType from, ColumnType to) {
        if (Objects.equals(from.connectType(), to.connectType()) && Objects.equals(from.logicalName(), to.logicalName())
                && from.scale() == to.scale() && from.precision() == to.precision()) {
            return Verdict.SAME;
        }
        if (from.logicalName() == null && to.logicalName() == null) {
            int a = INTEGERS.indexOf(from.connectType());
            int b = INTEGERS.indexOf(to.connectType());
            if (a >= 0 && b >= 0) {
                return b >= a ? (b == a ? Verdict.SAME : Verdict.WIDEN) : Verdict.REFUSE;
            }
            if (isFloat(from.connectType()) && isDouble(to.connectType())) {
                return Verdict.WIDEN;
            }
            if (isFloat(from.connectType()) && isFloat(to.connectType()) || isDouble(from.connectType()) && isDouble(to.connectType())) {
                return Verdict.SAME;
            }
            if (from.connectType().equals(to.connectType())) {
                return Verdict.SAME; // same physical type, only source length parameters differ
            }
        }
        if (ColumnType.DECIMAL.equals(from.logicalName()) && ColumnType.DECIMAL.equals(to.logicalName())) {
            int fs = Math.max(from.scale(), 0);
            int ts = Math.max(to.scale(), 0);
            if (from.precision() < 0 || to.precision() < 0) {
                return fs == ts ? Verdict.SAME : Verdict.REFUSE;
            }
            boolean scaleOk = ts >= fs;
            boolean integerDigitsOk = to.precision() - ts >= from.precision() - fs;
            return scaleOk && integerDigitsOk ? Verdict.WIDEN : Verdict.REFUSE;
        }
        if (Objects.equals(from.logicalName(), to.logicalName()) && from.connectType().equals(to.connectType())) {
            return Verdict.SAME;
        }
        return Verdict.REFUSE;
    }

    private static boolean isFloat(String t) {
        return t.equals("float") || t.equals("float32");
    }

    private static boolean isDouble(String t) {
        return t.equals("double") || t.equals("float64");
    }
}
