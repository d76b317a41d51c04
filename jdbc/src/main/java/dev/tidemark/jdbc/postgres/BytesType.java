package dev.tidemark.jdbc.postgres;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeBytes;
import dev.tidemark.jdbc.types.TargetType;
import java.util.List;

/** Binary: {@code BYTEA}, text in PostgreSQL's hex input format ({@code \x0aff}). */
final class BytesType implements NativeBytes {

    @Override
    public List<String> keys() {
        return List.of(TargetType.connect("bytes"));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "BYTEA";
    }

    @Override
    public String text(Object value) {
        return "\\x" + NativeBytes.super.text(value);
    }

    @Override
    public Object decode(String text) {
        return NativeBytes.super.decode(text.substring(2));
    }
}
