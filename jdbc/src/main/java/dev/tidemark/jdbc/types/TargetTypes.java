package dev.tidemark.jdbc.types;

import dev.tidemark.event.ColumnType;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The registry of one engine's {@link TargetType}s. A column's family is found by its logical name, then (for text
 * columns) its source type, then its Connect type, else the fallback; a value's family is the first registered family
 * that {@link TargetType#holds} it, else the fallback. Two families claiming one key are refused at construction.
 * Immutable and thread-safe.
 */
public final class TargetTypes {
    private final Map<String, TargetType> byKey = new HashMap<>();
    private final List<TargetType> families;
    private final TargetType fallback;

    /** {@code fallback} serves columns and values no family claims; it is registered like the others. */
    public TargetTypes(TargetType fallback, List<TargetType> families) {
        this.fallback = fallback;
        this.families = List.copyOf(families);
        for (TargetType family : this.families) {
            for (String key : family.keys()) {
                TargetType before = byKey.putIfAbsent(key, family);
                if (before != null) {
                    throw new IllegalArgumentException(key + " is claimed by both " + before.getClass().getSimpleName()
                            + " and " + family.getClass().getSimpleName());
                }
            }
        }
    }

    /** The family that creates columns of {@code type}. */
    public TargetType forColumn(ColumnType type) {
        TargetType found = type.logicalName() == null ? null : byKey.get(TargetType.logical(type.logicalName()));
        if (found == null && type.connectType().equals("string")) {
            found = byKey.get(TargetType.source(type.sourceType()));
        }
        if (found == null) {
            found = byKey.get(TargetType.connect(type.connectType()));
        }
        return found == null ? fallback : found;
    }

    /** The family that binds a non-null {@code value}. */
    public TargetType forValue(Object value) {
        for (TargetType family : families) {
            if (family.holds(value)) {
                return family;
            }
        }
        return fallback;
    }

    /** The column type to create for {@code type}. */
    public String ddl(ColumnType type, boolean key) {
        return forColumn(type).ddl(type, key);
    }

    /** Binds {@code value} (SQL NULL for null) through its family. */
    public void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.NULL);
        } else {
            forValue(value).bind(statement, index, value);
        }
    }

    /** The canonical text of {@code value} through its family; null stays null. */
    public String text(Object value) {
        return value == null ? null : forValue(value).text(value);
    }
}
