package dev.tidemark.sink.jdbc;

import dev.tidemark.event.ColumnType;

/**
 * The value of a constant default, given as PostgreSQL's text of it, in the Java type change events carry for the
 * column's Connect type (integers → {@link Long}, floating point → {@link Double}, boolean → {@link Boolean}, text
 * → {@link String}). Pure; another type is refused (capture carries only these).
 */
final class DefaultValues {
    private DefaultValues() {
    }

    static Object of(ColumnType type, String text) {
        if (text == null) {
            return null;
        }
        return switch (type.connectType()) {
            case "int8", "int16", "int32", "int64" -> Long.parseLong(text.trim());
            case "float", "double", "float32", "float64" -> Double.parseDouble(text.trim());
            case "boolean" -> switch (text.trim()) {
                case "true", "t" -> Boolean.TRUE;
                case "false", "f" -> Boolean.FALSE;
                default -> throw new IllegalArgumentException("not a boolean default: " + text);
            };
            case "string" -> text;
            default -> throw new IllegalArgumentException("a default of type " + type.connectType() + " is not carried");
        };
    }
}
