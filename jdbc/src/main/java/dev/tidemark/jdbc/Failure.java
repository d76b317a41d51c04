package dev.tidemark.jdbc;

/**
 * What a failure at the target means for the events being applied, as {@link SqlFailures#classify} decides it.
 *
 * <ul>
 *   <li>{@link Transient}: the same statements may succeed later (connection lost, server restarting, deadlock, busy
 *       file). The sink retries with backoff; when the retries run out it stops without advancing its offsets.</li>
 *   <li>{@link Fault}: the target, not the event, is at fault (missing privilege, missing table or column, disk full,
 *       authentication, a schema the sink refuses to change). Every later event would fail the same way, so the sink
 *       stops at once, naming the table and what to fix; nothing is dead-lettered and no offset advances.</li>
 *   <li>{@link RowRejected}: a row violates the target's constraints or data rules by itself (SQLState class 22 data
 *       exception, class 23 integrity constraint, and the MariaDB and SQLite equivalents). Only such a row is a
 *       poison event: the runner isolates it and stops on it, or dead-letters it when a dead-letter topic is set.</li>
 * </ul>
 */
public sealed interface Failure permits Failure.Transient, Failure.Fault, Failure.RowRejected {

    /** What the operator can do, as the end of a one-line message. */
    String advice();

    /** Worth retrying: the same statements may succeed later. */
    record Transient() implements Failure {
        @Override
        public String advice() {
            return "retried; offsets not advanced";
        }
    }

    /** The row itself breaks a rule of the target: a poison event. */
    record RowRejected() implements Failure {
        @Override
        public String advice() {
            return "the row violates the target table's constraints or types";
        }
    }

    /** The target must be fixed before any event of the table can be applied. */
    record Fault(Cause cause) implements Failure {
        public Fault {
            java.util.Objects.requireNonNull(cause, "cause");
        }

        @Override
        public String advice() {
            return cause.advice;
        }
    }

    /** Why the target is at fault. */
    enum Cause {
        PRIVILEGE("the sink's database user lacks a privilege on this table: grant it SELECT, INSERT, UPDATE and DELETE "
                + "(CREATE and ALTER for new tables and columns), then restart the sink; offsets not advanced"),
        MISSING_OBJECT("a table or column the sink writes is missing in the target: restore it as it was, then restart the sink; "
                + "offsets not advanced"),
        OUT_OF_RESOURCES("the target ran out of disk space or another resource: free it, then restart the sink; offsets not advanced"),
        AUTHENTICATION("the target refused the sink's credentials: fix target.user / target.password, then restart the sink"),
        SCHEMA("the target table cannot follow this change by itself: fix the table as described, then restart the sink; "
                + "offsets not advanced"),
        OTHER("the target refused the statement: fix the cause above, then restart the sink; offsets not advanced");

        private final String advice;

        Cause(String advice) {
            this.advice = advice;
        }

        public String advice() {
            return advice;
        }
    }
}
