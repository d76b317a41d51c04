package dev.tidemark.jdbc.types;

import java.util.List;
import java.util.stream.Stream;

/**
 * Text, and an engine's fallback for every column and value no other family claims: Connect strings and the text
 * source types in {@code sourceTypes} (upper case) that keep their own column type; values bound as their text.
 */
public record TextType(Ddl spelling, List<String> sourceTypes) implements SpelledType {

    @Override
    public List<String> keys() {
        return Stream.concat(Stream.of(TargetType.connect("string")), sourceTypes.stream().map(TargetType::source)).toList();
    }

    @Override
    public boolean holds(Object value) {
        return value instanceof String;
    }
}
