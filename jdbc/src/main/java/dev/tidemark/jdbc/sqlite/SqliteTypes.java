package dev.tidemark.jdbc.sqlite;

import dev.tidemark.event.ColumnType;
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
import java.util.List;

/**
 * SQLite's column type families, where type affinity decides storage: {@code INTEGER} for every integer width,
 * {@code REAL}, booleans as {@code BOOLEAN_INTEGER} {@code 1}/{@code 0}, {@code BLOB}, {@code TEXT}; exact types as
 * text in a declared type containing "TEXT" (TEXT affinity) that keeps the source meaning: decimals as their plain
 * text in {@code DECIMAL_TEXT(p,s)} (a NUMERIC affinity would round them through a double), date-times in fixed-width
 * ISO-8601 ({@code TIMESTAMPTZ_TEXT} in UTC with {@code Z}, {@code TIMESTAMP_TEXT}, {@code DATE_TEXT},
 * {@code TIME_TEXT}, zoned times too), {@code JSON_TEXT}, {@code UUID_TEXT}. A new type is one more family here.
 */
final class SqliteTypes {
    /** The fallback: {@code TEXT}, values as their text. */
    static final TextType TEXT = new TextType(Ddl.always("TEXT"), List.of());
    static final TargetTypes REGISTRY = new TargetTypes(TEXT, List.of(
            new IntegerType(Ddl.always("INTEGER")), new FloatType(Ddl.always("REAL")),
            new DecimalType(SqliteTypes::decimal, true), new BooleanType(Ddl.always("BOOLEAN_INTEGER"), true),
            new BytesType(Ddl.always("BLOB"), ""), TEXT,
            TemporalType.timestamps((t, k) -> t.is(ColumnType.ZONED_TIMESTAMP) ? "TIMESTAMPTZ_TEXT" : "TIMESTAMP_TEXT",
                    TemporalForm.TEXT),
            TemporalType.dates(Ddl.always("DATE_TEXT"), TemporalForm.TEXT),
            TemporalType.times(Ddl.always("TIME_TEXT"), TemporalForm.TEXT, true),
            CarriedAsText.json(Ddl.always("JSON_TEXT")), CarriedAsText.uuid(Ddl.always("UUID_TEXT"))));

    private SqliteTypes() {
    }

    private static String decimal(ColumnType type, boolean key) {
        if (type.is(ColumnType.VARIABLE_SCALE_DECIMAL)) {
            return "DECIMAL_TEXT";
        }
        int p = type.precision();
        return p > 0 ? "DECIMAL_TEXT(" + p + "," + Math.max(type.scale(), 0) + ")" : "DECIMAL_TEXT";
    }
}
