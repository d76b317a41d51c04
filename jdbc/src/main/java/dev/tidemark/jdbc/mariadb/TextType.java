package dev.tidemark.jdbc.mariadb;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.MariaDbKeyLayout;
import dev.tidemark.jdbc.types.TargetType;
import java.util.List;

/**
 * Text, and the fallback for every column and value no other family claims: {@code LONGTEXT}, in a key
 * {@code VARCHAR} of the source length (at most {@value #MAX_KEY_CHARS}), both byte-exact
 * ({@link MariaDbKeyLayout#TEXT_KEY_CHARSET}) so that comparisons and any index never merge distinct values.
 */
final class TextType implements TargetType {
    /** utf8mb4: InnoDB's 3072-byte index limit in characters. */
    static final int MAX_KEY_CHARS = 768;

    @Override
    public List<String> keys() {
        return List.of(TargetType.connect("string"));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return (key ? "VARCHAR(" + keyLength(type) + ")" : "LONGTEXT") + " " + MariaDbKeyLayout.TEXT_KEY_CHARSET;
    }

    @Override
    public boolean holds(Object value) {
        return value instanceof String;
    }

    private static int keyLength(ColumnType type) {
        String len = type.parameters().get(ColumnType.SOURCE_LENGTH);
        try {
            int n = len == null ? MAX_KEY_CHARS : Integer.parseInt(len);
            return n > 0 && n <= MAX_KEY_CHARS ? n : MAX_KEY_CHARS;
        } catch (NumberFormatException e) {
            return MAX_KEY_CHARS;
        }
    }
}
