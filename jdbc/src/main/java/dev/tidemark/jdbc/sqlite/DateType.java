package dev.tidemark.jdbc.sqlite;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.TypeKeys;
import java.time.LocalDate;
import java.time.temporal.Temporal;
import java.util.List;

/** Dates as ISO-8601 text: {@code DATE_TEXT}. */
final class DateType implements TemporalTextType {

    @Override
    public List<String> keys() {
        return TypeKeys.DATES;
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "DATE_TEXT";
    }

    @Override
    public List<Class<? extends Temporal>> javaTypes() {
        return List.of(LocalDate.class);
    }
}
