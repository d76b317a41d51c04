package dev.tidemark.jdbc.types;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HexFormat;

/** A family whose values are {@code byte[]}s, bound as they are; text in lower-case hex. */
public interface NativeBytes extends TargetType {

    @Override
    default boolean holds(Object value) {
        return value instanceof byte[];
    }

    @Override
    default void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        statement.setBytes(index, (byte[]) value);
    }

    @Override
    default String text(Object value) {
        return HexFormat.of().formatHex((byte[]) value);
    }

    @Override
    default Object decode(String text) {
        return HexFormat.of().parseHex(text);
    }
}
