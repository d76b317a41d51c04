package dev.tidemark.connect;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.kafka.AppliedRows;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The records of one partition resumed at a stored offset above 0 that the task applied before it stopped: at most
 * {@link AppliedRows#WINDOW} just below the stored offset, read again when the partition opens (the task seeks to
 * {@link #start()}) and never applied again. Once the last of them is read (the record just below the stored offset,
 * or, where compaction or retention removed it, the first one at or past the stored offset), they tell per table they
 * name whether the target must hold a row of it ({@link AppliedRows}). A window Kafka removed whole tells nothing.
 *
 * <p>Example: stored 1,200 → seek to 200; records 200..1,199 are collected; record 1,199 completes the window.
 *
 * <p>Threads: the task's one thread.
 */
final class ResumeWindow {
    private final long stored;
    private final Map<TableId, List<ChangeEvent>> events = new LinkedHashMap<>();

    ResumeWindow(long stored) {
        if (stored <= 0) {
            throw new IllegalArgumentException("a resume window needs a stored offset above 0, not " + stored);
        }
        this.stored = stored;
    }

    long stored() {
        return stored;
    }

    /** Where the task seeks the partition when it opens. */
    long start() {
        return Math.max(0, stored - AppliedRows.WINDOW);
    }

    /** Whether the record at {@code offset} was applied before: it is collected, not applied again. */
    boolean holds(long offset) {
        return offset < stored;
    }

    /** Collects a record of the window; {@code event} is null for one that cannot be decoded (it proves nothing). */
    void collect(ChangeEvent event) {
        if (event != null) {
            events.computeIfAbsent(event.table(), t -> new ArrayList<>()).add(event);
        }
    }

    /** Whether reading the record at {@code offset} (collected first, if the window holds it) completes the window. */
    boolean completedBy(long offset) {
        return offset >= stored - 1;
    }

    /** Per table the collected records name: whether they leave a row in its target table. */
    Map<TableId, Boolean> leaveARow() {
        Map<TableId, Boolean> out = new LinkedHashMap<>();
        events.forEach((table, list) -> out.put(table, AppliedRows.leaveARow(list)));
        return out;
    }

    /** Forgets what was collected: the task seeks to {@link #start()} again. */
    void restart() {
        events.clear();
    }
}
