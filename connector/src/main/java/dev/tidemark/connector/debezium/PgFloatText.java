package dev.tidemark.connector.debezium;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's text of a {@code float8} (pure): the shortest digits that read back as the same double, as PostgreSQL 12
 * and later print them ({@code extra_float_digits} 1, the default): plain notation for a decimal exponent from -4 to 14
 * ({@code 0.0001}, {@code 123456789012345}, {@code -0}), else {@code 1e-05}, {@code 1.5e+300}; {@code NaN},
 * {@code Infinity}, {@code -Infinity}. pgjdbc's geometric objects print their coordinates as Java does ({@code 1.0},
 * {@code 1.0E-5}); {@link #inText} rewrites them so that a point reaches a text target as PostgreSQL prints it.
 */
final class PgFloatText {
    /** A number as {@link Double#toString(double)} prints it. */
    private static final Pattern JAVA_DOUBLE = Pattern.compile("-?(?:\\d+\\.\\d+(?:E-?\\d+)?|Infinity)|NaN");

    private PgFloatText() {
    }

    /** PostgreSQL's text of {@code d}. */
    static String of(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        String sign = (d < 0 || (d == 0 && 1 / d < 0)) ? "-" : "";
        if (d == 0) {
            return sign + "0";
        }
        BigDecimal b = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        String digits = b.unscaledValue().toString();
        int exponent = digits.length() - 1 - b.scale();
        if (exponent >= -4 && exponent < 15) {
            return sign + b.toPlainString();
        }
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
    }

    /** {@code text} with every number printed as Java prints a double replaced by PostgreSQL's text of it. */
    static String inText(String text) {
        Matcher m = JAVA_DOUBLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(of(Double.parseDouble(m.group()))));
        }
        m.appendTail(out);
        return out.toString();
    }
}
