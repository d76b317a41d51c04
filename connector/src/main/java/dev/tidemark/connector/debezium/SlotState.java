package dev.tidemark.connector.debezium;

/** The source's logical replication slot as read before capture starts. */
public sealed interface SlotState {
    /** No slot of that name. */
    record Absent() implements SlotState {
    }

    /**
     * The slot exists.
     *
     * @param confirmedFlush the slot's {@code confirmed_flush_lsn}: the server streams nothing before it; null while
     *                       the slot is still being created
     */
    record Present(Lsn confirmedFlush, boolean active) implements SlotState {
    }
}
