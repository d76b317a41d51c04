package dev.tidemark.jdbc.postgres;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.TargetType;
import java.util.List;

/** Intervals, carried as text in PostgreSQL's own format: {@code INTERVAL}. */
final class IntervalType implements TargetType {

    @Override
    public List<String> keys() {
        return List.of(TargetType.logical(ColumnType.INTERVAL));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "INTERVAL";
    }
}
