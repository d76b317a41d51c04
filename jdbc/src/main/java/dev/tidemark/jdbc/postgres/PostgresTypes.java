package dev.tidemark.jdbc.postgres;

import dev.tidemark.jdbc.types.TargetTypes;
import java.util.List;

/** PostgreSQL's column type families: one class each; a new type is one more class in this list. */
final class PostgresTypes {
    static final TargetTypes REGISTRY = new TargetTypes(new TextType(), List.of(
            new IntegerType(), new FloatType(), new DecimalType(), new BooleanType(), new BytesType(), new TextType(),
            new TimestampType(), new DateType(), new TimeType(), new JsonType(), new UuidType(), new IntervalType(),
            new InetType()));

    private PostgresTypes() {
    }
}
