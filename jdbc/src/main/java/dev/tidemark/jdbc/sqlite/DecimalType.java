package dev.tidemark.jdbc.sqlite;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeDecimals;
import dev.tidemark.jdbc.types.TypeKeys;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Exact decimals, stored as their plain decimal text (a NUMERIC affinity would round them through a double):
 * {@code DECIMAL_TEXT(p,s)} where the source gives a precision, else {@code DECIMAL_TEXT}.
 */
final class DecimalType implements NativeDecimals {

    @Override
    public List<String> keys() {
        return TypeKeys.DECIMALS;
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        if (type.is(ColumnType.VARIABLE_SCALE_DECIMAL)) {
            return "DECIMAL_TEXT";
        }
        int p = type.precision();
        return p > 0 ? "DECIMAL_TEXT(" + p + "," + Math.max(type.scale(), 0) + ")" : "DECIMAL_TEXT";
    }

    @Override
    public void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        statement.setString(index, text(value));
    }
}
