package dev.tidemark.jdbc.mariadb;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeBytes;
import dev.tidemark.jdbc.types.TargetType;
import java.util.List;

/** Binary: {@code LONGBLOB}, in a key {@code VARBINARY} of the largest key length. */
final class BytesType implements NativeBytes {

    @Override
    public List<String> keys() {
        return List.of(TargetType.connect("bytes"));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return key ? "VARBINARY(" + TextType.MAX_KEY_CHARS + ")" : "LONGBLOB";
    }
}
