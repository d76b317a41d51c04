package dev.tidemark.connector.debezium;

import io.debezium.data.SpecialValueDecimal;
import io.debezium.data.VariableScaleDecimal;
import io.debezium.spi.converter.CustomConverter;
import io.debezium.spi.converter.RelationalColumn;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Properties;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * Carries unconstrained PostgreSQL {@code numeric} columns with their scale: {@code 1.10} stays {@code 1.10}.
 * Debezium's own conversion of such a column ({@code decimal.handling.mode=precise}) strips trailing zeros, so
 * {@code 1.10} arrives as {@code 1.1} and {@code 0.000} as {@code 0}. The event keeps Debezium's shape, a
 * {@code io.debezium.data.VariableScaleDecimal} struct of unscaled bytes and scale, so every consumer decodes it as
 * before.
 *
 * <p>{@code NaN} and {@code ±Infinity} have no decimal form: capture stops naming the column instead of sending a
 * NULL. Registered by {@link DebeziumChangeSource} as the Debezium converter {@value #NAME}.
 */
public final class ExactNumericConverter implements CustomConverter<SchemaBuilder, RelationalColumn> {
    /** The converter's name in the Debezium properties ({@code converters}). */
    public static final String NAME = "tidemarknumeric";
    /** Debezium's length of an unconstrained numeric column (as in its own {@code isVariableScaleDecimal}). */
    private static final int UNCONSTRAINED_LENGTH = 131089;

    @Override
    public void configure(Properties properties) {
        // nothing to configure
    }

    @Override
    public void converterFor(RelationalColumn column, ConverterRegistration<SchemaBuilder> registration) {
        if (!isUnconstrainedNumeric(column.typeName(), column.length().orElse(0), column.scale().orElse(0))) {
            return;
        }
        SchemaBuilder builder = VariableScaleDecimal.builder();
        if (column.isOptional()) {
            builder.optional();
        }
        // Debezium adds the propagated source type parameters to this builder before it builds the field's schema;
        // the struct must carry an equal schema, so it is built from the same builder once those are in.
        Schema[] schema = new Schema[1];
        String name = column.dataCollection() + "." + column.name();
        registration.register(builder, value -> {
            if (value == null) {
                return null;
            }
            if (schema[0] == null) {
                schema[0] = builder.build();
            }
            return VariableScaleDecimal.fromLogical(schema[0], exact(name, value));
        });
    }

    /** Debezium's test for a numeric without precision and scale. */
    static boolean isUnconstrainedNumeric(String typeName, int length, int scale) {
        return "numeric".equals(typeName.toLowerCase(Locale.ROOT)) && (length == 0 || length == UNCONSTRAINED_LENGTH) && scale == 0;
    }

    /** The value as an exact decimal, its scale as the source wrote it. */
    static BigDecimal exact(String column, Object value) {
        if (value instanceof BigDecimal d) {
            return d;
        }
        if (value instanceof SpecialValueDecimal s) {
            return s.getDecimalValue().orElseThrow(() -> special(column, Double.toString(s.toDouble()))); // NaN, Infinity, -Infinity
        }
        String text = value.toString();
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException e) {
            throw special(column, text);
        }
    }

    private static IllegalArgumentException special(String column, String value) {
        return new IllegalArgumentException("column " + column + " holds numeric " + value
                + ", which has no exact decimal form in the change event; capture stops rather than send NULL");
    }
}
