package dev.tidemark.jdbc.postgres;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.TargetType;
import java.util.List;

/** Network addresses from a source {@code inet} column, carried as text: {@code INET}. */
final class InetType implements TargetType {

    @Override
    public List<String> keys() {
        return List.of(TargetType.source("INET"));
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        return "INET";
    }
}
