package dev.tidemark.sink.jdbc;

import dev.tidemark.event.ColumnType;
import java.util.HashMap;
import java.util.Map;

/**
 * How a column's event type is kept in {@value SinkOptions#COLUMNS_TABLE}'s {@code parameters} text and shown in
 * messages. Pure; moved out of {@link TargetTables} unchanged.
 */
public final class RecordedTypes {
    private RecordedTypes() {
    }

    /** Only the parameters that decide the target type are kept: scale and precision. */
    static String encodeParameters(ColumnType type) {
        return "scale=" + type.scale() + ";precision=" + type.precision();
    }

    /**
     * The parameters of a recorded {@code k=v;k=v} text as event type parameters ({@code precision} becomes
     * {@code connect.decimal.precision}; a value of {@code -1} is not set); empty for null.
     */
    public static Map<String, String> decodeParameters(String text) {
        Map<String, String> p = new HashMap<>();
        if (text != null) {
            for (String part : text.split(";")) {
                int eq = part.indexOf('=');
                if (eq > 0 && !part.endsWith("=-1")) {
                    String k = part.substring(0, eq);
                    p.put(k.equals("precision") ? "connect.decimal.precision" : k, part.substring(eq + 1));
                }
            }
        }
        return p;
    }

    static String describe(ColumnType t) {
        String base = t.logicalName() == null ? t.connectType() : t.logicalName().substring(t.logicalName().lastIndexOf('.') + 1);
        return t.precision() >= 0 || t.scale() >= 0 ? base + "(" + t.precision() + "," + t.scale() + ")" : base;
    }
}
