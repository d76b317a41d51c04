package dev.tidemark.jdbc.postgres;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.TargetType;
import java.util.List;

/**
 * Text, and the fallback for every column and value no other family claims: {@code TEXT}, except that a source
 * {@code char(n)} or {@code varchar(n)} keeps its type and length (up to PostgreSQL's largest). Values are bound
 * as their text ({@code stringtype=unspecified} lets the server type it).
 */
final class TextType implements TargetType {
    /** PostgreSQL's largest declared length of {@code char(n)} and {@code varchar(n)}. */
    private static final int MAX_CHAR_LENGTH = 10_485_760;

    @Override
    public List<String> keys() {
        return List.of(TargetType.connect("string"), TargetType.source("BPCHAR"), TargetType.source("VARCHAR"));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        String declared = switch (type.connectType().equals("string") ? type.sourceType() : "") {
            case "BPCHAR" -> "CHAR";
            case "VARCHAR" -> "VARCHAR";
            default -> null;
        };
        if (declared == null) {
            return "TEXT";
        }
        int n = type.sourceLength();
        return n > 0 && n <= MAX_CHAR_LENGTH ? declared + "(" + n + ")" : declared.equals("CHAR") ? "BPCHAR" : declared;
    }

    @Override
    public boolean holds(Object value) {
        return value instanceof String;
    }
}
