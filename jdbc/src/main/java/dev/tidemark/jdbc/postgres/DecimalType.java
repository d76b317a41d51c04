package dev.tidemark.jdbc.postgres;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeDecimals;
import dev.tidemark.jdbc.types.TypeKeys;
import java.util.List;

/**
 * Exact decimals: {@code NUMERIC(p,s)} where the source gives a precision no smaller than its scale, else
 * unconstrained {@code NUMERIC} (also for Debezium's variable-scale decimals).
 */
final class DecimalType implements NativeDecimals {

    @Override
    public List<String> keys() {
        return TypeKeys.DECIMALS;
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        if (type.is(ColumnType.VARIABLE_SCALE_DECIMAL)) {
            return "NUMERIC";
        }
        int p = type.precision();
        int s = Math.max(type.scale(), 0);
        return p > 0 && p >= s ? "NUMERIC(" + p + "," + s + ")" : "NUMERIC";
    }
}
