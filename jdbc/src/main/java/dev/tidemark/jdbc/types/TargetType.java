package dev.tidemark.jdbc.types;

import dev.tidemark.event.ColumnType;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * One family of column types on one target engine (integers, decimals, timestamps, JSON, …): the column type it
 * creates, how it binds a decoded event value, the value's canonical text and its decode back. A {@link TargetTypes}
 * registry finds the family of a column by the {@link #keys()} it claims and the family of a value by
 * {@link #holds}; adding a type is one new class registered there. Implementations are stateless and thread-safe.
 */
public interface TargetType {

    /**
     * The keys this family claims, made with {@link #logical}, {@link #source} and {@link #connect}: a column's
     * logical name is looked up first, then (for text columns) its source type, then its Connect type.
     */
    List<String> keys();

    /** The column type to create for {@code type}; {@code key} when the column is part of the primary key. */
    String ddl(ColumnType type, boolean key);

    /** Whether values of this Java class are bound by this family; none by default (they travel as text). */
    default boolean holds(Object value) {
        return false;
    }

    /** Binds one non-null value of this family; as its {@link #text} by default. */
    default void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        statement.setString(index, text(value));
    }

    /** The value's canonical text, exact and in the engine's own input format: its {@code toString()} by default. */
    default String text(Object value) {
        return value.toString();
    }

    /** Reverses {@link #text}: the event value a canonical text stands for; the text itself by default. */
    default Object decode(String text) {
        return text;
    }

    /** The key of a Debezium or Connect logical type name ({@link ColumnType#logicalName()}). */
    static String logical(String name) {
        return "logical:" + name;
    }

    /** The key of a source column type carried as text ({@link ColumnType#sourceType()}, upper case). */
    static String source(String name) {
        return "source:" + name;
    }

    /** The key of a Connect physical type ({@link ColumnType#connectType()}). */
    static String connect(String name) {
        return "connect:" + name;
    }
}
