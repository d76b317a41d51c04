package dev.tidemark.jdbc.sqlite;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeBytes;
import dev.tidemark.jdbc.types.TargetType;
import java.util.List;

/** Binary: {@code BLOB}. */
final class BytesType implements NativeBytes {

    @Override
    public List<String> keys() {
        return List.of(TargetType.connect("bytes"));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "BLOB";
    }
}
