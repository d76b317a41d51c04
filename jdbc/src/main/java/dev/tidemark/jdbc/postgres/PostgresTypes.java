package dev.tidemark.jdbc.postgres;

import dev.tidemark.event.ColumnType;
import dev.tidemark.jdbc.Identifiers;
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
import java.util.Locale;

/**
 * PostgreSQL's column type families, native exact types throughout: {@code SMALLINT}/{@code INTEGER}/{@code BIGINT},
 * {@code REAL}/{@code DOUBLE PRECISION}, {@code NUMERIC(p,s)} (unconstrained where the source gives no precision no
 * smaller than its scale), {@code BYTEA} (text {@code \x0aff}), {@code TEXT} (a source {@code char(n)}/{@code varchar(n)}
 * keeps its type and length), {@code TIMESTAMPTZ}/{@code TIMESTAMP(3)}/{@code TIMESTAMP} (an instant bound as a UTC
 * offset date-time), {@code DATE}, {@code TIME}/{@code TIMETZ}, {@code JSON} for a source {@code json} column (it keeps
 * its text) else {@code JSONB}, {@code UUID}, {@code INTERVAL}, {@code INET}, the source's array type for an array
 * carried as text ({@code "int4"[]} for {@code _int4}) and the
 * source's type for another type carried so ({@code "int4range"}; {@code "bit"(3)} and {@code "varbit"(5)} with the
 * source's length), bound as its text; an enum as the source's enum
 * type ({@code "mood"}; the event spells the name in upper case, so it is taken in lower case), which must exist on the
 * target. A new type is one more family in this list.
 */
final class PostgresTypes {
    /** The fallback: {@code TEXT}, values bound as their text ({@code stringtype=unspecified} lets the server type it). */
    static final TextType TEXT = new TextType(PostgresTypes::text, List.of("BPCHAR", "VARCHAR"));
    static final TargetTypes REGISTRY = new TargetTypes(TEXT, List.of(
            new IntegerType(Ddl.integers("SMALLINT", "INTEGER", "BIGINT")), new FloatType(Ddl.floats("REAL", "DOUBLE PRECISION")),
            new DecimalType(PostgresTypes::decimal, false), new BooleanType(Ddl.always("BOOLEAN"), false),
            new BytesType(Ddl.always("BYTEA"), "\\x"), TEXT,
            TemporalType.timestamps(PostgresTypes::timestamp, TemporalForm.INSTANT_AS_OFFSET),
            TemporalType.dates(Ddl.always("DATE"), TemporalForm.INSTANT_AS_OFFSET),
            TemporalType.times((t, k) -> t.is(ColumnType.ZONED_TIME) ? "TIMETZ" : "TIME", TemporalForm.INSTANT_AS_OFFSET, true),
            CarriedAsText.json((t, k) -> t.sourceType().equals("JSON") ? "JSON" : "JSONB"),
            CarriedAsText.uuid(Ddl.always("UUID")), CarriedAsText.interval(Ddl.always("INTERVAL")),
            CarriedAsText.inet(Ddl.always("INET")), CarriedAsText.sourceText(PostgresTypes::sourceText),
            CarriedAsText.enumeration((t, k) -> Identifiers.doubleQuoted(t.sourceType().toLowerCase(Locale.ROOT)))));
    /** PostgreSQL's largest declared length of {@code char(n)} and {@code varchar(n)}. */
    private static final int MAX_CHAR_LENGTH = 10_485_760;
    /** PostgreSQL's largest declared length of {@code bit(n)} and {@code varbit(n)}. */
    private static final int MAX_BIT_LENGTH = 83_886_080;

    private PostgresTypes() {
    }

    private static String decimal(ColumnType type, boolean key) {
        if (type.is(ColumnType.VARIABLE_SCALE_DECIMAL)) {
            return "NUMERIC";
        }
        int p = type.precision();
        int s = Math.max(type.scale(), 0);
        return p > 0 && p >= s ? "NUMERIC(" + p + "," + s + ")" : "NUMERIC";
    }

    private static String timestamp(ColumnType type, boolean key) {
        if (type.is(ColumnType.ZONED_TIMESTAMP)) {
            return "TIMESTAMPTZ";
        }
        return TypeKeys.millis(type) ? "TIMESTAMP(3)" : "TIMESTAMP";
    }

    /**
     * The source's own built-in type for a value carried as its text: an array {@code _elem} is {@code "elem"[]},
     * another type its name ({@code "int4range"}); TEXT when the schema does not name it.
     */
    private static String sourceText(ColumnType type, boolean key) {
        String name = type.sourceType().toLowerCase(Locale.ROOT);
        if (name.startsWith("_") && name.length() > 1) {
            return Identifiers.doubleQuoted(name.substring(1)) + "[]";
        }
        int n = type.sourceLength();
        if ((name.equals("bit") || name.equals("varbit")) && n > 0 && n <= MAX_BIT_LENGTH) {
            return Identifiers.doubleQuoted(name) + "(" + n + ")";
        }
        return name.isEmpty() ? "TEXT" : Identifiers.doubleQuoted(name);
    }

    private static String text(ColumnType type, boolean key) {
        String declared = switch (type.connectType().equals("string") ? type.sourceType() : "") {
            case "BPCHAR" -> "CHAR";
            case "VARCHAR" -> "VARCHAR";
            default -> null;
        };
        if (declared == null) {
            return "TEXT";
        }
        int n = type.sourceLength();
        return n > 0 && n <= MAX_CHAR_LENGTH ? declared + "(" + n + ")" : declared.equals("CHAR") ? "BPCHAR" : declared;
    }
}
