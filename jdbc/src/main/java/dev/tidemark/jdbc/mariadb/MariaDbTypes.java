package dev.tidemark.jdbc.mariadb;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.MariaDbKeyLayout;
import dev.tidemark.jdbc.types.BooleanType;
import dev.tidemark.jdbc.types.BytesType;
import dev.tidemark.jdbc.types.CarriedAsText;
import dev.tidemark.jdbc.types.DecimalType;
import dev.tidemark.jdbc.types.Ddl;
import dev.tidemark.jdbc.types.FloatType;
import dev.tidemark.jdbc.types.IntegerType;
import dev.tidemark.jdbc.types.TargetTypes;
import dev.tidemark.jdbc.types.TemporalForm;
import dev.tidemark.jdbc.types.TemporalType;
import dev.tidemark.jdbc.types.TextType;
import dev.tidemark.jdbc.types.TypeKeys;
import java.util.List;

/**
 * MariaDB's column type families: {@code SMALLINT}/{@code INT}/{@code BIGINT}, {@code FLOAT}/{@code DOUBLE},
 * {@code DECIMAL(p,s)} within MariaDB's limits (precision 65, scale 38; else {@code DECIMAL(65,s)} with the scale
 * between 30 and 38, variable-scale {@code DECIMAL(65,30)}), {@code BOOLEAN}, {@code LONGBLOB}, {@code LONGTEXT},
 * {@code DATETIME(3)}/{@code DATETIME(6)} for every timestamp, zoned ones in UTC (an instant bound as its UTC
 * wall-clock time; MariaDB's {@code TIMESTAMP} ends in 2038), {@code DATE}, {@code TIME(6)} (zoned times are text),
 * {@code JSON}, {@code UUID}. Text, bytes and JSON in a key are {@code VARCHAR}/{@code VARBINARY} of at most
 * {@value #MAX_KEY_CHARS}, all text byte-exact ({@link MariaDbKeyLayout#TEXT_KEY_CHARSET}) so that comparisons and
 * any index never merge distinct values. A new type is one more family in this list.
 */
final class MariaDbTypes {
    /** utf8mb4: InnoDB's 3072-byte index limit in characters. */
    static final int MAX_KEY_CHARS = 768;
    /** The fallback: values bound as their text. */
    static final TextType TEXT = new TextType(MariaDbTypes::text, List.of());
    static final TargetTypes REGISTRY = new TargetTypes(TEXT, List.of(
            new IntegerType(Ddl.integers("SMALLINT", "INT", "BIGINT")), new FloatType(Ddl.floats("FLOAT", "DOUBLE")),
            new DecimalType(MariaDbTypes::decimal, false), new BooleanType(Ddl.always("BOOLEAN"), false),
            new BytesType((t, key) -> key ? "VARBINARY(" + MAX_KEY_CHARS + ")" : "LONGBLOB", ""), TEXT,
            TemporalType.timestamps((t, k) -> TypeKeys.millis(t) ? "DATETIME(3)" : "DATETIME(6)", TemporalForm.INSTANT_AS_LOCAL),
            TemporalType.dates(Ddl.always("DATE"), TemporalForm.INSTANT_AS_LOCAL),
            TemporalType.times(Ddl.always("TIME(6)"), TemporalForm.INSTANT_AS_LOCAL, false),
            CarriedAsText.json((t, key) -> key ? "VARCHAR(" + MAX_KEY_CHARS + ") " + MariaDbKeyLayout.TEXT_KEY_CHARSET : "JSON"),
            CarriedAsText.uuid(Ddl.always("UUID"))));

    private MariaDbTypes() {
    }

    private static String decimal(ColumnType type, boolean key) {
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

    private static String text(ColumnType type, boolean key) {
        return (key ? "VARCHAR(" + keyLength(type) + ")" : "LONGTEXT") + " " + MariaDbKeyLayout.TEXT_KEY_CHARSET;
    }

    private static int keyLength(ColumnType type) {
        String len = type.parameters().get(ColumnType.SOURCE_LENGTH);
        try {
            int n = len == null ? MAX_KEY_CHARS : Integer.parseInt(len);
            return n > 0 && n <= MAX_KEY_CHARS ? n : MAX_KEY_CHARS;
        } catch (NumberFormatException e) {
            return MAX_KEY_CHARS;
        }
    }
}
