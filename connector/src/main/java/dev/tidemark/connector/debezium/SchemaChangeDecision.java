package dev.tidemark.connector.debezium;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.TableId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What capture does with one schema change of a captured table ({@link DdlMessage}), column by column, matched by
 * attribute number (stable across a rename). Pure.
 *
 * <ul>
 *   <li>column added: without a default (or DEFAULT NULL) existing rows are NULL ({@link ChangeEvent.ColumnChange.Added}
 *       with no value where the type is one it carries, so a target column of that name kept from an earlier drop is
 *       set to NULL too); with a constant default of a type it can carry ({@link #TYPES}) → {@link ChangeEvent.ColumnChange.Added}
 *       with the value existing rows got; a default that is not a constant ({@code now()}, {@code random()}, a
 *       sequence), an identity column, or a constant of another type → {@link Stop};
 *       a generated column → a note (pgoutput sends no generated columns, the target never gets it);</li>
 *   <li>column renamed → {@link ChangeEvent.ColumnChange.Renamed}; dropped → {@link ChangeEvent.ColumnChange.Dropped};</li>
 *   <li>type changed: a widening that keeps every value (smaller → larger integer, between {@code text} and
 *       {@code varchar}, {@code numeric(p,s)} → {@code numeric(p',s)} with p' ≥ p) → a note (later rows carry the new
 *       type and the sink widens the column); any other type change rewrote existing rows without row events →
 *       {@link Stop}, or with a snapshot of the table requested after it {@link ChangeEvent.ColumnChange.Retyped};</li>
 *   <li>SET/DROP NOT NULL and SET/DROP DEFAULT change no stored value → a note;</li>
 *   <li>the table renamed → {@link Stop} (capture follows tables by name).</li>
 * </ul>
 * The stop line names the table, the change and the command that recovers.
 */
final class SchemaChangeDecision {
    /** Source types whose constant defaults are carried, with the Connect type their change events use. */
    static final Map<String, String> TYPES = Map.of("int2", "int16", "int4", "int32", "int8", "int64", "bool", "boolean",
            "text", "string", "varchar", "string", "float4", "float", "float8", "double");
    private static final List<String> INTEGERS = List.of("int2", "int4", "int8");
    private static final Set<String> TEXTS = Set.of("text", "varchar");

    private SchemaChangeDecision() {
    }

    /** The outcome. */
    sealed interface Outcome {
    }

    /** Follow: send {@code changes} (none: nothing to carry) and log each note. */
    record Follow(List<ChangeEvent.ColumnChange> changes, List<String> notes) implements Outcome {
    }

    /**
     * Stop capture with this one line; nothing from the change on is sent. {@code snapshotRecovers}: the line names
     * {@code tidemark snapshot} of the table itself, and {@link #decide(DdlMessage, String, boolean)} with a snapshot
     * requested after the change follows it.
     */
    record Stop(String line, boolean snapshotRecovers) implements Outcome {
    }

    static Outcome decide(DdlMessage m, String configLabel) {
        return decide(m, configLabel, false);
    }

    /**
     * @param snapshotRequested a snapshot of the table was requested after this change (later in the stream): a column
     *     added with values capture cannot carry (volatile default, identity, a constant not carried) is followed without
     *     them, and a type change that rewrote rows is followed as {@link ChangeEvent.ColumnChange.Retyped} (later rows
     *     carry the new values, and the snapshot rewrites every existing row) instead of stopping; a renamed table still
     *     stops
     */
    static Outcome decide(DdlMessage m, String configLabel, boolean snapshotRequested) {
        if (m.after().isEmpty()) {
            return new Follow(List.of(), List.of());
        }
        DdlMessage.Shape after = m.after().get();
        String snapshot = "`tidemark snapshot --config " + (configLabel == null ? "<path>" : configLabel) + " --table ";
        if (!after.table().equals(m.before().table())) {
            return renamedTable(m.before().table(), after.table(), snapshot);
        }
        Decision d = new Decision(m.before().table(), snapshot, snapshotRequested);
        for (DdlMessage.Col was : m.before().columns()) {
            Optional<DdlMessage.Col> now = after.byAttnum(was.attnum());
            Optional<Stop> stop = now.isEmpty() ? d.dropped(was) : d.existing(was, now.get());
            if (stop.isPresent()) {
                return stop.get();
            }
        }
        for (DdlMessage.Col is : after.columns()) {
            Optional<Stop> stop = m.before().byAttnum(is.attnum()).isPresent() ? Optional.empty() : d.added(is);
            if (stop.isPresent()) {
                return stop.get();
            }
        }
        return new Follow(List.copyOf(d.changes), List.copyOf(d.notes));
    }

    private static Stop renamedTable(TableId table, TableId renamed, String snapshot) {
        return new Stop("capture stopped: table " + table + " was renamed to " + renamed + " at the source; capture follows "
                + "tables by name, so its changes would no longer arrive. Nothing from that change on was sent. Put "
                + renamed + " in source.tables in place of " + table + ", then run " + snapshot + renamed + "`", false);
    }

    /** The changes and notes of one message so far, column by column. */
    private static final class Decision {
        private final TableId table;
        private final boolean snapshotRequested;
        private final String stopPrefix;
        private final String stopSuffix;
        private final List<ChangeEvent.ColumnChange> changes = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();

        Decision(TableId table, String snapshot, boolean snapshotRequested) {
            this.table = table;
            this.snapshotRequested = snapshotRequested;
            this.stopPrefix = "capture stopped: table " + table + ": ";
            this.stopSuffix = "; nothing from that change on was sent. Copy the table again: " + snapshot + table + "`";
        }

        Optional<Stop> dropped(DdlMessage.Col was) {
            changes.add(new ChangeEvent.ColumnChange.Dropped(was.name()));
            return Optional.empty();
        }

        /** A column present before and after: renamed, retyped, NOT NULL or default changed. */
        Optional<Stop> existing(DdlMessage.Col was, DdlMessage.Col is) {
            if (!is.name().equals(was.name())) {
                changes.add(new ChangeEvent.ColumnChange.Renamed(was.name(), is.name()));
            }
            if (!is.type().equals(was.type())) {
                Optional<Stop> stop = typeChanged(was, is);
                if (stop.isPresent()) {
                    return stop;
                }
            }
            if (is.notNull() != was.notNull()) {
                notes.add("table " + table + " column " + is.name() + ": " + (is.notNull() ? "SET" : "DROP")
                        + " NOT NULL changes no value; the target column stays nullable");
            }
            if (!java.util.Objects.equals(is.defaultExpr(), was.defaultExpr())) {
                notes.add("table " + table + " column " + is.name() + ": default "
                        + (is.defaultExpr() == null ? "dropped" : "now " + is.defaultExpr())
                        + "; existing rows keep their values and new rows carry theirs");
            }
            return Optional.empty();
        }

        private Optional<Stop> typeChanged(DdlMessage.Col was, DdlMessage.Col is) {
            if (keepsValues(was, is)) {
                notes.add("table " + table + " column " + is.name() + ": type " + was.type() + " → " + is.type()
                        + " keeps every value; the sink widens the target column with the next row");
                return Optional.empty();
            }
            if (snapshotRequested) {
                changes.add(new ChangeEvent.ColumnChange.Retyped(is.name(), was.type(), is.type()));
                notes.add(rewritten(table, is.name(), "changed type from " + was.type() + " to " + is.type()));
                return Optional.empty();
            }
            return Optional.of(new Stop(stopPrefix + "column " + is.name() + " changed type from " + was.type() + " to " + is.type()
                    + ", which rewrote every existing row at the source without row events" + stopSuffix, true));
        }

        /** A column that is new: its existing rows' values carried, left to the snapshot, or a stop. */
        Optional<Stop> added(DdlMessage.Col is) {
            if (is.generated()) {
                notes.add("table " + table + " column " + is.name() + " is generated: pgoutput sends no generated columns, so the "
                        + "target does not get it");
                return Optional.empty();
            }
            String connect = TYPES.get(is.typname());
            boolean nullDefault = is.defaultExpr() == null || "NULL".equalsIgnoreCase(is.defaultExpr())
                    || is.defaultExpr().startsWith("NULL::");
            boolean carried = !is.identity() && (nullDefault || (is.constant() && connect != null && is.value() != null));
            if (!carried && snapshotRequested) {
                notes.add(rewritten(table, is.name(), "added"));
                return Optional.empty();
            }
            if (nullDefault && !is.identity()) {
                // existing rows are NULL at the source too; carried where the type is, so that a target column of the
                // same name kept from an earlier drop is set to NULL as well
                if (connect != null) {
                    changes.add(new ChangeEvent.ColumnChange.Added(is.name(), type(is, connect), null));
                }
                return Optional.empty();
            }
            Optional<String> why = notCarried(is, connect);
            if (why.isPresent()) {
                return Optional.of(new Stop(stopPrefix + "column " + is.name() + why.get() + stopSuffix, true));
            }
            changes.add(new ChangeEvent.ColumnChange.Added(is.name(), type(is, connect), is.value()));
            return Optional.empty();
        }

        /** Why the values existing rows got for added column {@code is} (not NULL) cannot be carried, if so. */
        private static Optional<String> notCarried(DdlMessage.Col is, String connect) {
            if (is.identity()) {
                return Optional.of(" was added as an identity column: every existing row got its own value from a sequence, and "
                        + "PostgreSQL sent no row events for them");
            }
            if (!is.constant()) {
                return Optional.of(" was added with DEFAULT " + is.defaultExpr() + ", which is not a constant: the existing rows got "
                        + "values PostgreSQL sent no row events for");
            }
            if (connect == null) {
                return Optional.of(" was added with DEFAULT " + is.defaultExpr() + " of type " + is.type() + ", whose value capture "
                        + "does not carry to existing rows (it carries integers, boolean, text, varchar, real and double precision)");
            }
            if (is.value() == null) {
                return Optional.of(" was added with DEFAULT " + is.defaultExpr() + ", but the value the existing rows got is not "
                        + "recorded (the same statement rewrote the table)");
            }
            return Optional.empty();
        }
    }

    private static String rewritten(TableId table, String column, String change) {
        return "table " + table + " column " + column + " " + change + ": existing rows are rewritten by the snapshot of " + table
                + " requested after this change; rows written from now on carry their values";
    }

    /** The Connect type the change events of {@code c} use, with the source type parameters Debezium adds. */
    private static ColumnType type(DdlMessage.Col c, String connect) {
        Map<String, String> params = new java.util.HashMap<>();
        params.put(ColumnType.SOURCE_TYPE, c.typname().toUpperCase(java.util.Locale.ROOT));
        if (c.typname().equals("varchar") && c.typmod() > 4) {
            params.put(ColumnType.SOURCE_LENGTH, Integer.toString(c.typmod() - 4));
        }
        return new ColumnType(connect, null, params);
    }

    /** Whether a type change keeps every stored value as it was (the target can follow it). */
    static boolean keepsValues(DdlMessage.Col was, DdlMessage.Col is) {
        int a = INTEGERS.indexOf(was.typname());
        int b = INTEGERS.indexOf(is.typname());
        if (a >= 0 && b >= 0) {
            return b >= a;
        }
        if (TEXTS.contains(was.typname()) && TEXTS.contains(is.typname())) {
            // to a shorter varchar PostgreSQL refuses the change when a value is too long; a value is never cut
            return true;
        }
        if (was.typname().equals("numeric") && is.typname().equals("numeric") && was.typmod() > 4 && is.typmod() > 4) {
            int wp = (was.typmod() - 4) >> 16;
            int ws = (was.typmod() - 4) & 0xffff;
            int ip = (is.typmod() - 4) >> 16;
            int is2 = (is.typmod() - 4) & 0xffff;
            return ws == is2 && ip >= wp;
        }
        return false;
    }
}
