package dev.tidemark.connector.debezium;

import dev.tidemark.event.ColumnType;
import io.debezium.spi.converter.CustomConverter;
import io.debezium.spi.converter.RelationalColumn;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.util.Properties;
import java.util.Set;
import org.postgresql.util.PGobject;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * Carries PostgreSQL columns as PostgreSQL's own text, exactly as the server prints it: arrays of any element type,
 * any number of dimensions, lower bounds kept ({@code [2:3]={1,2}}, {@code {{1,2},{3,4}}}, {@code {NULL}},
 * {@code {"a b","c,d",NULL,""}}), and the base types in {@link #TEXT_TYPES} ({@code xml}, {@code cidr}, ranges,
 * {@code tsvector}, geometric types, {@code pg_lsn}, {@code "char"}, {@code name}, {@code oid},
 * multiranges, …), which pgoutput sends and the snapshot reads as that text. Debezium's own conversion turns a
 * multi-dimensional array into nulls and refuses or reshapes the others. The event field is a Connect string named
 * {@value ColumnType#SOURCE_TEXT}; the source type travels in the propagated schema parameters ({@code _int4},
 * {@code int4range}), from which a PostgreSQL target creates the same type.
 *
 * <p>Only those columns are touched; every other column keeps Debezium's conversion. Registered by
 * {@link CaptureSettings} as the Debezium converter {@value #NAME}.
 */
public final class SourceTextConverter implements CustomConverter<SchemaBuilder, RelationalColumn> {
    /** The converter's name in the Debezium properties ({@code converters}). */
    public static final String NAME = "tidemarktext";
    /**
     * Base types ({@code pg_type.typname}) carried as their text: Debezium decodes each streamed value with
     * {@code asString()} and the driver reads each snapshot value as an object over the server's text.
     */
    public static final Set<String> TEXT_TYPES = Set.of("xml", "cidr", "macaddr", "macaddr8", "int4range", "int8range",
            "numrange", "daterange", "tsrange", "tsvector", "tsquery", "point", "line", "lseg", "box", "path", "polygon",
            "circle", "pg_lsn", "char", "name", "oid", "int4multirange", "int8multirange", "nummultirange",
            "datemultirange", "tsmultirange", "bit", "varbit");

    @Override
    public void configure(Properties properties) {
        // nothing to configure
    }

    @Override
    public void converterFor(RelationalColumn column, ConverterRegistration<SchemaBuilder> registration) {
        if (!carriesAsText(column.typeName())) {
            return;
        }
        SchemaBuilder builder = SchemaBuilder.string().name(ColumnType.SOURCE_TEXT);
        if (column.isOptional()) {
            builder.optional();
        }
        registration.register(builder, SourceTextConverter::text);
    }

    /** Whether a column of this PostgreSQL type ({@code pg_type.typname}) travels as its text: arrays ({@code _int4}) and {@link #TEXT_TYPES}. */
    static boolean carriesAsText(String typeName) {
        return typeName != null && (typeName.startsWith("_") || TEXT_TYPES.contains(typeName));
    }

    /**
     * The value's PostgreSQL text: streamed values arrive as that text (arrays as pgjdbc's array over it), snapshot
     * values as the driver's object over it ({@link PGobject}, {@link SQLXML}, an array), each giving it back unchanged; a {@code bit(1)} the driver reads as a
     * {@link Boolean} is its bit ({@code 1}, {@code 0}).
     */
    static String text(Object value) {
        if (value instanceof PGobject o) {
            // pgjdbc's geometric objects print their coordinates as Java does; PostgreSQL's text is wanted
            return o.getClass().getPackageName().equals("org.postgresql.geometric") ? PgFloatText.inText(o.getValue()) : o.getValue();
        }
        if (value instanceof Boolean b) {
            return b ? "1" : "0"; // a bit(1) value as the snapshot's driver reads it
        }
        if (value instanceof SQLXML x) {
            try {
                return x.getString();
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read an xml value: " + e.getMessage(), e);
            }
        }
        return value == null ? null : value.toString();
    }
}
