package dev.tidemark.jdbc.postgres;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeTemporals;
import dev.tidemark.jdbc.types.TypeKeys;
import java.time.LocalDate;
import java.time.temporal.Temporal;
import java.util.List;

/** Dates: {@code DATE}. */
final class DateType implements NativeTemporals {

    @Override
    public List<String> keys() {
        return TypeKeys.DATES;
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "DATE";
    }

    @Override
    public List<Class<? extends Temporal>> javaTypes() {
        return List.of(LocalDate.class);
    }
}
