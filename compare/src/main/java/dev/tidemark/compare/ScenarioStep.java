package dev.tidemark.compare;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * One change a scenario makes to the source between two runs, carrying its ground-truth <em>intent</em>: what kind
 * of change it is as far as a watermark query can tell. {@link CauseAttribution} explains every difference between a
 * target and the source from these intents alone, so a difference no intent explains is reported as such.
 *
 * <p>All timestamps are values of the cursor column {@code LastModified}.
 */
public sealed interface ScenarioStep {

    /** What kind of change this is, for attribution and reports. */
    Intent intent();

    /** The keys it writes, in order. */
    List<Long> keys();

    /** One line for reports: {@code insert 415 (LastModified 2013-06-01T00:00, backdated)}. */
    String describe();

    /** The kinds of change, by whether a watermark query on {@code LastModified} can see them. */
    enum Intent {
        /** A new row stamped later than every row before it: the next run copies it. */
        INSERT("insert", "inserts"),
        /** A change that stamps the cursor later than every row before it: the next run copies the row. */
        UPDATE("update", "updates"),
        /** A new row stamped below the watermark already stored (a late or backdated row): never read. */
        BACKDATED_INSERT("backdated insert", "backdated inserts"),
        /** A change that leaves the cursor as it was: never read again. */
        UPDATE_NOT_TOUCHING_CURSOR("update not touching the cursor", "updates not touching the cursor"),
        /** A hard delete: a query for changed rows cannot return a row that no longer exists. */
        DELETE("delete", "deletes"),
        /** A new row stamped exactly at the stored watermark, after the run that stored it: windows are {@code (wm, upper]}. */
        EQUAL_TIMESTAMP_BOUNDARY("insert at the watermark", "inserts at the watermark"),
        /** Writes stamped when their transaction began, committed after a run already read past that stamp. */
        LONG_TRANSACTION("long transaction", "long transactions");

        private final String one;
        private final String many;

        Intent(String one, String many) {
            this.one = one;
            this.many = many;
        }

        /** {@code 1 backdated insert}, {@code 2 updates not touching the cursor}. */
        public String count(long n) {
            return n + " " + (n == 1 ? one : many);
        }
    }

    /** {@code 2 inserts, 1 update, 1 delete, 1 backdated insert} (in order of first appearance); {@code —} for none. */
    static String summarize(List<ScenarioStep> steps) {
        if (steps.isEmpty()) {
            return "—";
        }
        java.util.Map<Intent, Long> counts = new java.util.LinkedHashMap<>();
        steps.forEach(s -> counts.merge(s.intent(), 1L, Long::sum));
        return String.join(", ", counts.entrySet().stream().map(e -> e.getKey().count(e.getValue())).toList());
    }

    /** A new row with a fresh (latest) {@code LastModified}. */
    record Insert(InvoiceRow row) implements ScenarioStep {
        public Insert {
            Objects.requireNonNull(row, "row");
        }

        @Override
        public Intent intent() {
            return Intent.INSERT;
        }

        @Override
        public List<Long> keys() {
            return List.of(row.invoiceId());
        }

        @Override
        public String describe() {
            return "insert " + row.invoiceId() + " (LastModified " + row.lastModified() + ")";
        }
    }

    /** A new row whose {@code LastModified} lies below the watermark the previous run stored. */
    record BackdatedInsert(InvoiceRow row) implements ScenarioStep {
        public BackdatedInsert {
            Objects.requireNonNull(row, "row");
        }

        @Override
        public Intent intent() {
            return Intent.BACKDATED_INSERT;
        }

        @Override
        public List<Long> keys() {
            return List.of(row.invoiceId());
        }

        @Override
        public String describe() {
            return "insert " + row.invoiceId() + " backdated (LastModified " + row.lastModified() + ")";
        }
    }

    /**
     * A new {@code Total} for an existing row; {@code lastModified} is the new cursor value, or null when the update
     * does not touch the cursor (a trigger-less table, a bulk fix, a column the application forgot to stamp).
     */
    record Update(long key, BigDecimal total, LocalDateTime lastModified) implements ScenarioStep {
        public Update {
            Objects.requireNonNull(total, "total");
        }

        public boolean touchesCursor() {
            return lastModified != null;
        }

        @Override
        public Intent intent() {
            return touchesCursor() ? Intent.UPDATE : Intent.UPDATE_NOT_TOUCHING_CURSOR;
        }

        @Override
        public List<Long> keys() {
            return List.of(key);
        }

        @Override
        public String describe() {
            return "update " + key + " (Total " + total.toPlainString()
                    + (touchesCursor() ? ", LastModified " + lastModified : "; LastModified not touched") + ")";
        }
    }

    /** A hard delete. */
    record Delete(long key) implements ScenarioStep {
        @Override
        public Intent intent() {
            return Intent.DELETE;
        }

        @Override
        public List<Long> keys() {
            return List.of(key);
        }

        @Override
        public String describe() {
            return "delete " + key;
        }
    }

    /** A new row whose {@code LastModified} equals the watermark the previous run stored. */
    record EqualTimestampBoundary(InvoiceRow row) implements ScenarioStep {
        public EqualTimestampBoundary {
            Objects.requireNonNull(row, "row");
        }

        @Override
        public Intent intent() {
            return Intent.EQUAL_TIMESTAMP_BOUNDARY;
        }

        @Override
        public List<Long> keys() {
            return List.of(row.invoiceId());
        }

        @Override
        public String describe() {
            return "insert " + row.invoiceId() + " at the watermark (LastModified " + row.lastModified() + ")";
        }
    }

    /**
     * Inserts and cursor-touching updates made on a second connection, all stamped with the time the transaction
     * began. The scenario runner opens it where the step stands (before the run), lets the rest of the changes commit
     * (at least one of them stamped later), runs the watermark, and commits it only then: the run read past the stamp
     * while the rows were invisible to it.
     */
    record LongTransaction(List<ScenarioStep> writes) implements ScenarioStep {
        public LongTransaction {
            writes = List.copyOf(writes);
            if (writes.isEmpty()) {
                throw new IllegalArgumentException("a long transaction writes at least one row");
            }
            for (ScenarioStep w : writes) {
                if (!(w instanceof Insert) && !(w instanceof Update u && u.touchesCursor())) {
                    throw new IllegalArgumentException("a long transaction holds inserts and cursor-touching updates, not " + w.describe());
                }
            }
        }

        @Override
        public Intent intent() {
            return Intent.LONG_TRANSACTION;
        }

        @Override
        public List<Long> keys() {
            return writes.stream().flatMap(w -> w.keys().stream()).toList();
        }

        @Override
        public String describe() {
            return "long transaction committed after the run: " + String.join(", ", writes.stream().map(ScenarioStep::describe).toList());
        }
    }
}
