package dev.tidemark.jdbc.mariadb;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeTemporals;
import dev.tidemark.jdbc.types.TypeKeys;
import java.time.LocalTime;
import java.time.temporal.Temporal;
import java.util.List;

/** Local times of day: {@code TIME(6)}; zoned times are text. */
final class TimeType implements NativeTemporals {

    @Override
    public List<String> keys() {
        return TypeKeys.TIMES;
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "TIME(6)";
    }

    @Override
    public List<Class<? extends Temporal>> javaTypes() {
        return List.of(LocalTime.class);
    }
}
