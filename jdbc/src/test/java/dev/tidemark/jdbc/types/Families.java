package dev.tidemark.jdbc.types;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.ColumnType;
import java.util.Map;

/** Assertions on a {@link TargetTypes} registry shared by the engines' registry tests. */
public final class Families {

    private Families() {
    }

    /** A column of {@code type}'s family, by its class, and the column type it creates outside a key. */
    public static void column(TargetTypes registry, ColumnType type, Class<? extends TargetType> family, String ddl) {
        assertThat(registry.forColumn(type)).isInstanceOf(family);
        assertThat(registry.ddl(type, false)).isEqualTo(ddl);
    }

    /** A value's family, by its class, its canonical text and that text's decode back to an equal value. */
    public static void value(TargetTypes registry, Object value, Class<? extends TargetType> family, String text) {
        TargetType found = registry.forValue(value);
        assertThat(found).isInstanceOf(family);
        assertThat(registry.text(value)).isEqualTo(text);
        assertThat(found.decode(text)).isEqualTo(value);
    }

    /** A column type of Connect type {@code connect} with logical name {@code logical} (may be null). */
    public static ColumnType logical(String connect, String logical) {
        return new ColumnType(connect, logical, Map.of());
    }

    /** A text column whose source type is {@code source}. */
    public static ColumnType source(String source) {
        return new ColumnType("string", null, Map.of(ColumnType.SOURCE_TYPE, source));
    }
}
