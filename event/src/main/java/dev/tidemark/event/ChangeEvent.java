package dev.tidemark.event;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One change to apply to a target, decoded from a change-event envelope. Exhaustive by design: the sink switches
 * over the permitted records without a default branch, so a new kind of change cannot be silently ignored.
 * {@link SchemaChange} (envelope {@code op} {@value SchemaChange#OP}) is ordered among the rows like any other event;
 * a decoder that predates it refuses it as an unknown {@code op}.
 *
 * <p>Keys are maps from key column name to value in key-column order; values are the decoded Java values
 * ({@link Long}, {@link Double}, {@link Boolean}, {@link String}, {@link java.math.BigDecimal},
 * {@link java.time.Instant}, {@link java.time.LocalDateTime}, {@link java.time.LocalDate}, {@link java.time.LocalTime},
 * {@code byte[]}) or {@code null}.
 */
public sealed interface ChangeEvent {

    TableId table();

    Map<String, Object> key();

    SourcePosition position();

    /** The same change at another source position (the sink orders some positions relative to what it applied). */
    ChangeEvent withPosition(SourcePosition position);

    /** Insert, update or snapshot read: the full row after the change ({@code op} c, u, r). */
    record Upsert(TableId table, Map<String, Object> key, RowSchema schema, Map<String, Object> row,
                  SourcePosition position, Op op) implements ChangeEvent {
        public Upsert {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(schema, "schema");
            key = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(key));
            row = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(row));
            if (key.isEmpty()) {
                throw new IllegalArgumentException("table " + table + ": upsert without a primary key");
            }
        }

        @Override
        public Upsert withPosition(SourcePosition position) {
            return new Upsert(table, key, schema, row, position, op);
        }

        /** Columns whose value is Debezium's unchanged-TOAST placeholder: they must be left out of updates. */
        public List<String> unavailableColumns() {
            List<String> out = null;
            for (Map.Entry<String, Object> e : row.entrySet()) {
                if (e.getValue() instanceof String v && v.equals(UNAVAILABLE)) {
                    if (out == null) {
                        out = new java.util.ArrayList<>();
                    }
                    out.add(e.getKey());
                }
            }
            return out == null ? List.of() : List.copyOf(out);
        }
    }

    /** A delete ({@code op} d) or a tombstone (key with a null value). */
    record Delete(TableId table, Map<String, Object> key, SourcePosition position, boolean tombstone)
            implements ChangeEvent {
        public Delete {
            Objects.requireNonNull(table, "table");
            key = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(key));
            if (key.isEmpty()) {
                throw new IllegalArgumentException("table " + table + ": delete without a primary key");
            }
        }

        @Override
        public Delete withPosition(SourcePosition position) {
            return new Delete(table, key, position, tombstone);
        }
    }

    /**
     * A truncate of the whole table ({@code op} t): the rows older than {@code position} go. With {@code sweep} it is
     * capture's end of a snapshot (initial or incremental) that began at {@code position} (envelope {@code
     * source.tidemark = "snapshot-sweep"}), a control record and no row change: the rows the sink wrote that the
     * snapshot no longer holds go, whether or not the sink applies truncates.
     */
    record Truncate(TableId table, SourcePosition position, boolean sweep) implements ChangeEvent {
        /** A truncate the source made. */
        public Truncate(TableId table, SourcePosition position) {
            this(table, position, false);
        }

        @Override
        public Map<String, Object> key() {
            return Map.of();
        }

        @Override
        public Truncate withPosition(SourcePosition position) {
            return new Truncate(table, position, sweep);
        }
    }

    /**
     * A change of a table's columns at the source, at the position of the DDL that made it (capture sends one copy to
     * every partition of the table's topic, so it precedes every later row of the table on each). Rows whose position
     * precedes it were written with the columns before the change.
     */
    record SchemaChange(TableId table, SourcePosition position, List<ColumnChange> changes, String statement)
            implements ChangeEvent {
        /** The envelope's {@code op} of a schema change. */
        public static final String OP = "ddl";

        public SchemaChange {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(position, "position");
            changes = List.copyOf(changes);
            statement = statement == null ? "" : statement;
        }

        @Override
        public Map<String, Object> key() {
            return Map.of();
        }

        @Override
        public SchemaChange withPosition(SourcePosition position) {
            return new SchemaChange(table, position, changes, statement);
        }
    }

    /** One column's part of a {@link SchemaChange}. */
    sealed interface ColumnChange {
        /**
         * A column added with a constant default: every row that existed got {@code value} (the default's text, as
         * PostgreSQL casts it to text), typed as {@code type} in change events.
         */
        record Added(String column, ColumnType type, String value) implements ColumnChange {
            public Added {
                Objects.requireNonNull(column, "column");
                Objects.requireNonNull(type, "type");
            }
        }

        /** A column renamed (same attribute number at the source): its values stay. */
        record Renamed(String from, String to) implements ColumnChange {
            public Renamed {
                Objects.requireNonNull(from, "from");
                Objects.requireNonNull(to, "to");
            }
        }

        /**
         * A column whose type changed at the source in a way that rewrote every existing row ({@code from} and
         * {@code to} as PostgreSQL spells them, e.g. {@code integer} → {@code smallint}): rows after it carry the new
         * type, and a snapshot requested after the change rewrites every row that existed.
         */
        record Retyped(String column, String from, String to) implements ColumnChange {
            public Retyped {
                Objects.requireNonNull(column, "column");
                Objects.requireNonNull(from, "from");
                Objects.requireNonNull(to, "to");
            }
        }

        /** A column dropped at the source. */
        record Dropped(String column) implements ColumnChange {
            public Dropped {
                Objects.requireNonNull(column, "column");
            }
        }
    }

    /** The envelope's {@code op} codes that produce an {@link Upsert}. */
    enum Op { CREATE, UPDATE, READ }

    /** Debezium's placeholder for an unchanged TOASTed value that the log did not carry. */
    String UNAVAILABLE = "__debezium_unavailable_value";
}
