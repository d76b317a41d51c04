package dev.tidemark.jdbc.mariadb;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.types.NativeDecimals;
import dev.tidemark.jdbc.types.TypeKeys;
import java.util.List;

/**
 * Exact decimals: {@code DECIMAL(p,s)} within MariaDB's limits (precision 65, scale 38), else {@code DECIMAL(65,s)}
 * with the scale between 30 and 38; variable-scale decimals {@code DECIMAL(65,30)}.
 */
final class DecimalType implements NativeDecimals {

    @Override
    public List<String> keys() {
        return TypeKeys.DECIMALS;
    }

    @Override
    public String ddl(ColumnType type, boolean key) {
        if (type.is(ColumnType.VARIABLE_SCALE_DECIMAL)) {
            return "DECIMAL(65,30)";
        }
        int p = type.precision();
        int s = Math.max(type.scale(), 0);
        if (p > 0 && p <= 65 && s <= 38 && p >= s) {
            return "DECIMAL(" + p + "," + s + ")";
        }
        return "DECIMAL(65," + Math.min(Math.max(s, 30), 38) + ")";
    }
}
