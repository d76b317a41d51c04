package dev.tidemark.jdbc.types;

import dev.tidemark.event.ColumnType;

/** A {@link TargetType} whose column type is whatever its engine's {@link #spelling()} says. */
public interface SpelledType extends TargetType {

    /** How this family's engine names the column type. */
    Ddl spelling();

    @Override
    default String ddl(ColumnType type, boolean key) {
        return spelling().of(type, key);
    }
}
