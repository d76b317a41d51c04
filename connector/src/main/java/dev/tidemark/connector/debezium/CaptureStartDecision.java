package dev.tidemark.connector.debezium;

import java.util.Optional;

/**
 * Decides how capture starts, before the engine runs, from what the slot and the offsets file say and what the
 * user asked for. Pure: no I/O.
 *
 * <p>Debezium left alone would, with missing or unreadable offsets, take a new snapshot and stream from the current
 * WAL position (deletes in between are lost to the target); with a slot ahead of the offsets it would silently
 * stream from the slot (changes in between are lost). Tidemark refuses both unless the user chooses explicitly:
 * <pre>
 * slot        offsets               no choice          --resnapshot                 --accept-gap
 * absent      absent                Fresh              Resnapshot(no drop)          Fresh
 * absent      damaged / present     Refuse (item 5)    Resnapshot(set offsets aside) AcceptGap(set offsets aside)
 * present     absent / damaged      Refuse (items 2,3) Resnapshot(drop slot, …)     AcceptGap(set offsets aside)
 * present C   present at L, C &gt; L   Refuse (item 4)    Resnapshot(drop slot, …)     AcceptGap(keep offsets)
 * present C   present at L, C ≤ L   Resume             Resnapshot(drop slot, …)     Resume
 * present     snapshot incomplete   Refuse             Resnapshot(drop slot, …)     AcceptGap(set offsets aside)
 * present     absent, stopped before
 *             a first position      Refuse             Resnapshot(drop slot, …)     Refuse (nothing was captured)
 * </pre>
 * A slot ahead of the offsets but not ahead of the delivered position D (every record up to D is in Kafka, see
 * {@link DeliveredPosition}) resumes: Debezium confirms positions to the slot after storing offsets, so a kill in
 * between leaves exactly that, and nothing is lost.
 */
public final class CaptureStartDecision {
    private CaptureStartDecision() {
    }

    /**
     * @param slotName the slot's name, for the message
     * @param config   the pipeline file as the user named it, for the commands the message suggests
     */
    public static CaptureStart decide(String slotName, String config, SlotState slot, StoredOffsets offsets, CaptureChoice choice) {
        return decide(slotName, config, slot, offsets, Optional.empty(), choice);
    }

    /** @param delivered the furthest position Kafka acknowledged ({@link DeliveredPosition}), if known */
    public static CaptureStart decide(String slotName, String config, SlotState slot, StoredOffsets offsets, Optional<Lsn> delivered,
                                      CaptureChoice choice) {
        return decide(slotName, config, slot, offsets, delivered, Optional.empty(), choice);
    }

    /**
     * @param noFirstPosition the command of a stop before the first stored position ({@link FirstPositionNote}), if
     *                        the last capture left one
     */
    public static CaptureStart decide(String slotName, String config, SlotState slot, StoredOffsets offsets, Optional<Lsn> delivered,
                                      Optional<String> noFirstPosition, CaptureChoice choice) {
        return decide(slotName, config, null, slot, offsets, delivered, noFirstPosition, choice);
    }

    /**
     * @param command the command that runs capture ({@code run} or {@code capture}), for the whole commands a refusal
     *                names; null: the refusal names only the flags
     */
    public static CaptureStart decide(String slotName, String config, String command, SlotState slot, StoredOffsets offsets,
                                      Optional<Lsn> delivered, Optional<String> noFirstPosition, CaptureChoice choice) {
        return decideFor(slotName, new WaysOn(config, command), slot, offsets, delivered, noFirstPosition, choice);
    }

    /** The pipeline file as the user named it and the command that runs capture (null: unknown), for the ways on. */
    private record WaysOn(String config, String command) {
        String sentence(boolean slotGone) {
            return waysOn(config, command, slotGone);
        }
    }

    private static CaptureStart decideFor(String slotName, WaysOn config, SlotState slot, StoredOffsets offsets, Optional<Lsn> delivered,
                                          Optional<String> noFirstPosition, CaptureChoice choice) {
        boolean slotExists = slot instanceof SlotState.Present;
        boolean offsetsExist = !(offsets instanceof StoredOffsets.Absent);
        if (choice == CaptureChoice.RESNAPSHOT) {
            return new CaptureStart.Resnapshot(slotExists, offsetsExist);
        }
        boolean gap = choice == CaptureChoice.ACCEPT_GAP;
        if (slot instanceof SlotState.Present s) {
            if (offsets instanceof StoredOffsets.Present p) {
                return decidePresent(slotName, config, s, p, delivered, choice);
            }
            if (offsets instanceof StoredOffsets.Absent && noFirstPosition.isPresent()) {
                return new CaptureStart.Refuse("capture refuses to start: replication slot \"" + slotName + "\" exists (confirmed "
                        + lsn(s) + ") but the last capture stopped before it stored a first position in " + offsets.file()
                        + " (" + FirstPositionNote.fileFor(offsets.file()) + "), so nothing was captured: a start without a snapshot "
                        + "would leave every existing row out of the target. Take the snapshot: `" + noFirstPosition.get() + "`");
            }
            if (gap) {
                return new CaptureStart.AcceptGap(true);
            }
            return refuse("replication slot \"" + slotName + "\" exists (confirmed " + lsn(s) + ") but the offsets file " + offsets.file()
                    + (offsets instanceof StoredOffsets.Damaged d ? " is damaged (" + d.reason() + ")" : " is missing"), config, false);
        }
        if (!offsetsExist) {
            return new CaptureStart.Fresh();
        }
        if (gap) {
            return new CaptureStart.AcceptGap(true);
        }
        if (offsets instanceof StoredOffsets.Damaged d) {
            return refuse("replication slot \"" + slotName + "\" does not exist and the offsets file " + d.file()
                    + " is damaged (" + d.reason() + ")", config, true);
        }
        return refuse("replication slot \"" + slotName + "\" does not exist (dropped?) but the offsets file " + offsets.file()
                + " holds position " + at((StoredOffsets.Present) offsets) + ": the changes since then are gone from the server", config, true);
    }

    private static CaptureStart decidePresent(String slotName, WaysOn config, SlotState.Present s, StoredOffsets.Present p,
                                              Optional<Lsn> delivered, CaptureChoice choice) {
        if (p.position().isEmpty()) {
            return choice == CaptureChoice.ACCEPT_GAP ? new CaptureStart.AcceptGap(true)
                    : refuse("the offsets file " + p.file() + " names no WAL position (replication slot \"" + slotName
                    + "\" confirmed " + lsn(s) + ")", config, false);
        }
        Lsn stored = p.position().get();
        if (p.snapshotIncomplete()) {
            return choice == CaptureChoice.ACCEPT_GAP ? new CaptureStart.AcceptGap(true)
                    : refuse("the offsets file " + p.file() + " (at " + stored + ", replication slot \"" + slotName + "\" confirmed " + lsn(s)
                    + ") was stored during the initial snapshot, which did not complete: resuming would take the whole snapshot again "
                    + "without removing target rows deleted since", config, false);
        }
        boolean deliveredUpToSlot = delivered.isPresent() && s.confirmedFlush() != null && !s.confirmedFlush().isAfter(delivered.get());
        if (s.confirmedFlush() != null && s.confirmedFlush().isAfter(stored) && !deliveredUpToSlot) {
            return choice == CaptureChoice.ACCEPT_GAP ? new CaptureStart.AcceptGap(false)
                    : refuse("replication slot \"" + slotName + "\" is at " + s.confirmedFlush() + ", ahead of the offsets file "
                    + p.file() + " at " + stored + delivered.map(d -> " and of the last position delivered to Kafka, " + d).orElse("")
                    + " (advanced while capture was stopped?): the changes between them are gone from the slot",
                    config, false);
        }
        return new CaptureStart.Resume(stored);
    }

    private static CaptureStart.Refuse refuse(String what, WaysOn config, boolean slotGone) {
        return new CaptureStart.Refuse("capture refuses to start: " + what + ". " + config.sentence(slotGone));
    }

    /**
     * The two ways on after a gap of the whole slot, as one sentence; {@code config} is the pipeline file as the user
     * named it (null: {@code FILE}). A re-snapshot needs nothing after it: its sweep removes the rows the new snapshot
     * no longer has.
     */
    public static String waysOn(String config, boolean slotGone) {
        return waysOn(config, null, slotGone);
    }

    /**
     * As {@link #waysOn(String, boolean)}, naming the whole commands when {@code command} ({@code run} or
     * {@code capture}) is known: {@code `tidemark run --config p.yaml --resnapshot`}.
     */
    public static String waysOn(String config, String command, boolean slotGone) {
        String file = config == null ? "FILE" : config;
        String resnapshot = command == null ? "restart with --resnapshot" : "`tidemark " + command + " --config " + file + " --resnapshot`";
        String acceptGap = command == null ? "restart with --accept-gap" : "`tidemark " + command + " --config " + file + " --accept-gap`";
        return "Either re-snapshot: " + resnapshot + " ("
                + (slotGone ? "creates a new slot" : "drops and re-creates the slot") + "; when the new snapshot ends, the target rows it"
                + " no longer has are removed); or accept the gap: " + acceptGap + " (streams from the slot's position without a"
                + " snapshot; changes in the gap are not captured)";
    }

    private static String lsn(SlotState.Present s) {
        return s.confirmedFlush() == null ? "at no position yet" : s.confirmedFlush().toString();
    }

    private static String at(StoredOffsets.Present p) {
        return p.position().map(Lsn::toString).orElse("(none)");
    }
}
