package dev.tidemark.jdbc.types;

import dev.tidemark.event.ColumnType;
import java.util.List;

/**
 * A family whose values travel as text and are bound as their text, which the engine's column type parses: JSON,
 * UUIDs, intervals, network addresses, PostgreSQL arrays. A new such source type is one more factory here.
 */
public record CarriedAsText(List<String> keys, Ddl spelling) implements SpelledType {

    /** JSON documents (Debezium's {@code Json}). */
    public static CarriedAsText json(Ddl spelling) {
        return new CarriedAsText(List.of(TargetType.logical(ColumnType.JSON)), spelling);
    }

    /** UUIDs (Debezium's {@code Uuid}). */
    public static CarriedAsText uuid(Ddl spelling) {
        return new CarriedAsText(List.of(TargetType.logical(ColumnType.UUID)), spelling);
    }

    /** Intervals in PostgreSQL's own format (Debezium's {@code MicroDuration} as a string). */
    public static CarriedAsText interval(Ddl spelling) {
        return new CarriedAsText(List.of(TargetType.logical(ColumnType.INTERVAL)), spelling);
    }

    /**
     * Values in the source database's own text ({@link ColumnType#SOURCE_TEXT}: PostgreSQL arrays); engines that hold
     * them as plain text need not register this, their text fallback serves them.
     */
    public static CarriedAsText sourceText(Ddl spelling) {
        return new CarriedAsText(List.of(TargetType.logical(ColumnType.SOURCE_TEXT)), spelling);
    }

    /** Enum labels (Debezium's {@code Enum}). */
    public static CarriedAsText enumeration(Ddl spelling) {
        return new CarriedAsText(List.of(TargetType.logical(ColumnType.ENUM)), spelling);
    }

    /** Network addresses from a source {@code inet} column. */
    public static CarriedAsText inet(Ddl spelling) {
        return new CarriedAsText(List.of(TargetType.source("INET")), spelling);
    }
}
