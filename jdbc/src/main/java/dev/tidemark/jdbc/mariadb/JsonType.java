package dev.tidemark.jdbc.mariadb;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.MariaDbKeyLayout;
import dev.tidemark.jdbc.types.TargetType;
import java.util.List;

/** JSON documents, carried as text: {@code JSON}, in a key byte-exact {@code VARCHAR} of the largest key length. */
final class JsonType implements TargetType {

    @Override
    public List<String> keys() {
        return List.of(TargetType.logical(ColumnType.JSON));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return key ? "VARCHAR(" + TextType.MAX_KEY_CHARS + ") " + MariaDbKeyLayout.TEXT_KEY_CHARSET : "JSON";
    }
}
