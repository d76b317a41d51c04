package dev.tidemark.connector.debezium;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether a pipeline owns the replication slot and the publication its configuration names, and so whether capture may
 * use them ({@link #decide}) and {@code tidemark drop} may remove them ({@link #slotMine}, {@link #publication}). Pure:
 * no I/O; {@link SourceOwners} reads the {@link Facts}.
 *
 * <p>A slot is the pipeline's when
 * <ul>
 *   <li>a Tidemark owner record on the source (a publication comment, {@link SlotOwner}) names it with the pipeline's
 *       own id (from its state folder, {@link OwnerFile}); a record with another id makes it another pipeline's, always;</li>
 *   <li>without such a record: the pipeline's owner file names it (the pipeline created it and stopped before it could
 *       record that on the source, or its publication is not its own); or the pipeline has no owner file yet but its
 *       offsets file exists (a pipeline that ran before owners were recorded: adopted and recorded at this start); or the
 *       user started with {@code --accept-gap}, which streams from an existing slot on purpose (e.g. one created in
 *       advance to hold WAL).</li>
 * </ul>
 * A slot that does not exist is free: capture creates it. A publication is the pipeline's on the same evidence (its
 * own record, its owner file naming it, or offsets without an owner file); an existing publication without any record
 * whose tables are exactly the captured ones is used as it is and never changed or dropped ({@link Publication#SHARED});
 * one recorded for another pipeline, or unrecorded with other tables (capture would set them), is refused.
 * A slot held by a walsender while it is the pipeline's (or recorded for a pipeline of the same name, e.g. started
 * from another host) means the pipeline already runs: refused at once, naming the holder.
 * Refusals name the owner and advise only a step that touches what this pipeline owns.
 */
public final class Ownership {
    private Ownership() {
    }

    /** A walsender that holds the slot: the server's backend PID, the client's host and application name. */
    public record Holder(int pid, String host, String application) {
        String describe() {
            return "PID " + pid + " from host " + host;
        }
    }

    /**
     * What the state folder and the source say.
     *
     * @param local                 the pipeline's owner file, if any
     * @param offsetsExist          the pipeline's offsets file exists (readable or not)
     * @param holder                the walsender holding the slot, when the slot is active
     * @param slotRecord            the Tidemark owner record naming the slot, if any
     * @param publicationRecord     the Tidemark owner record on the publication, if any
     * @param publicationTablesMatch the existing publication holds exactly the captured tables
     */
    public record Facts(String pipeline, String slot, String publication, Path stateDir, Optional<SlotOwner> local, boolean offsetsExist,
                        boolean slotExists, Optional<Holder> holder, Optional<SlotOwner> slotRecord, boolean publicationExists,
                        Optional<SlotOwner> publicationRecord, boolean publicationTablesMatch) {
    }

    /** What a pipeline may do with an existing publication. */
    public enum Publication {
        /** It does not exist: capture creates it (and records its owner). */
        ABSENT,
        /** The pipeline's own. */
        MINE,
        /** Not recorded as anyone's, with exactly the captured tables: used as it is, never changed or dropped. */
        SHARED,
        /** Another pipeline's, or unrecorded with other tables: refused. */
        REFUSED
    }

    /** The outcome of {@link #decide}. */
    public sealed interface Verdict {
        /**
         * Capture may start.
         *
         * @param owner              the owner file to keep (its id created now if the pipeline had none)
         * @param recordNow          write {@code owner} as the publication's comment before the engine starts
         * @param recordWhenCreated  write it once capture has created the publication (it does not exist yet)
         */
        record Proceed(SlotOwner owner, boolean recordNow, boolean recordWhenCreated) implements Verdict {
        }

        /** Capture must not start: {@code message} is one line; nothing was changed. */
        record Refuse(String message) implements Verdict {
        }
    }

    /**
     * @param freshId     the id to give the pipeline if it has none yet
     * @param acceptGap   the user started with {@code --accept-gap}
     * @param configLabel the pipeline file as the user named it, for the advice
     */
    public static Verdict decide(Facts f, String freshId, boolean acceptGap, String configLabel) {
        String file = configLabel == null ? "the pipeline file" : configLabel;
        boolean mine = slotMine(f, acceptGap);
        boolean sameName = f.slotRecord().map(o -> o.pipeline().equals(f.pipeline())).orElse(false);
        if (f.holder().isPresent() && (mine || sameName)) {
            return new Verdict.Refuse("pipeline " + f.pipeline() + " is already running (slot \"" + f.slot() + "\" held by "
                    + f.holder().get().describe() + "); nothing was changed: stop that process before starting this one");
        }
        if (!mine) {
            return new Verdict.Refuse("capture refuses to start: " + slotNotMine(f) + "; nothing was changed. Give pipeline "
                    + f.pipeline() + " a slot of its own: set source.slot in " + file + " to a name no other pipeline uses (capture creates it)");
        }
        Publication pub = publication(f);
        if (pub == Publication.REFUSED) {
            return new Verdict.Refuse("capture refuses to start: " + publicationNotMine(f) + "; nothing was changed. Give pipeline "
                    + f.pipeline() + " a publication of its own: set source.publication in " + file
                    + " to a name no other pipeline uses (capture creates it)");
        }
        SlotOwner base = f.local().orElse(new SlotOwner(f.pipeline(), freshId, f.slot(), null));
        SlotOwner owner = base.of(f.slot(), pub == Publication.SHARED ? null : f.publication());
        boolean recordNow = pub == Publication.MINE && !f.publicationRecord().equals(Optional.of(owner));
        return new Verdict.Proceed(owner, recordNow, pub == Publication.ABSENT);
    }

    /** The slot is free (absent) or the pipeline's, on the evidence listed in the class comment. */
    public static boolean slotMine(Facts f, boolean acceptGap) {
        if (!f.slotExists()) {
            return true;
        }
        if (f.slotRecord().isPresent()) {
            return f.local().isPresent() && f.slotRecord().get().id().equals(f.local().get().id());
        }
        if (f.local().isPresent()) {
            return f.slot().equals(f.local().get().slot()) || acceptGap;
        }
        return f.offsetsExist() || acceptGap;
    }

    /** What the pipeline may do with its configured publication. */
    public static Publication publication(Facts f) {
        if (!f.publicationExists()) {
            return Publication.ABSENT;
        }
        if (f.publicationRecord().isPresent()) {
            return f.local().isPresent() && f.publicationRecord().get().id().equals(f.local().get().id()) ? Publication.MINE : Publication.REFUSED;
        }
        if (f.local().isPresent() ? f.publication().equals(f.local().get().publication()) : f.offsetsExist()) {
            return Publication.MINE;
        }
        return f.publicationTablesMatch() ? Publication.SHARED : Publication.REFUSED;
    }

    /** Why the existing slot is not the pipeline's, for a refusal. */
    static String slotNotMine(Facts f) {
        String inUse = f.holder().map(h -> ", in use: held by " + h.describe()).orElse("");
        if (f.slotRecord().isPresent()) {
            SlotOwner o = f.slotRecord().get();
            return "replication slot \"" + f.slot() + "\" belongs to pipeline " + o.pipeline() + " (owner id " + o.shortId()
                    + ", recorded on publication \"" + o.publication() + "\"" + inUse + "), not to pipeline " + f.pipeline();
        }
        return "replication slot \"" + f.slot() + "\" exists but pipeline " + f.pipeline() + " did not create it (no Tidemark owner "
                + "record names it" + (f.local().isPresent() ? "; the pipeline's own is \"" + f.local().get().slot() + "\""
                : " and the pipeline has no offsets in " + f.stateDir()) + inUse + ")";
    }

    /** Why the existing publication may not be used, for a refusal. */
    static String publicationNotMine(Facts f) {
        if (f.publicationRecord().isPresent()) {
            SlotOwner o = f.publicationRecord().get();
            return "publication \"" + f.publication() + "\" belongs to pipeline " + o.pipeline() + " (owner id " + o.shortId()
                    + ", slot \"" + o.slot() + "\"), not to pipeline " + f.pipeline();
        }
        return "publication \"" + f.publication() + "\" exists with other tables than pipeline " + f.pipeline()
                + " captures and the pipeline did not create it (capture would change its tables)";
    }
}
