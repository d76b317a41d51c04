package dev.tidemark.jdbc.types;

import java.util.List;

/** Binary, bound natively; text in lower-case hex after the engine's {@code prefix} ({@code \x} on PostgreSQL). */
public record BytesType(Ddl spelling, String prefix) implements NativeBytes, SpelledType {

    @Override
    public List<String> keys() {
        return List.of(TargetType.connect("bytes"));
    }

    @Override
    public String text(Object value) {
        return prefix + NativeBytes.super.text(value);
    }

    @Override
    public Object decode(String text) {
        return NativeBytes.super.decode(text.substring(prefix.length()));
    }
}
