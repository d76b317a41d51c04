package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Before capture changes anything: refuses at once when the pipeline already runs (its {@link CaptureLock} is held, or
 * its slot is held by a walsender) or when the slot or publication is not the pipeline's ({@link Ownership}), so no
 * later step can drop, advance or re-create what another pipeline owns. Once the start goes ahead
 * ({@link #commit}), the pipeline's owner record is kept in its state folder and on the source (its publication's
 * comment, written when the publication exists: at once, or by {@link #recordWhenCreated} once capture has created it).
 */
final class CaptureGuard {
    private static final Logger log = LoggerFactory.getLogger(CaptureGuard.class);

    private CaptureGuard() {
    }

    /** Refuses at once, before the source is asked anything, when the pipeline's capture lock is held. */
    static void refuseIfLocked(PipelineConfig config) {
        Optional<String> holder = CaptureLock.heldBy(config.stateDir(), config.name());
        if (holder.isPresent()) {
            throw new CaptureRefusedException(CaptureLock.alreadyRunning(config.name(), holder.get(),
                    CaptureLock.fileFor(config.stateDir(), config.name())));
        }
    }

    /** @throws CaptureRefusedException with the one line, before anything was changed */
    static Ownership.Verdict.Proceed check(PipelineConfig config, SourceSlots slots, CaptureChoice choice, String configLabel) {
        refuseIfLocked(config);
        Ownership.Facts facts;
        try (Connection c = slots.connect()) {
            facts = SourceOwners.read(config, c);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the owner of replication slot \"" + config.source().slot() + "\" and publication \""
                    + config.source().publication() + "\": " + e.getMessage(), e);
        }
        Ownership.Verdict v = Ownership.decide(facts, UUID.randomUUID().toString(), choice == CaptureChoice.ACCEPT_GAP, configLabel);
        if (v instanceof Ownership.Verdict.Refuse r) {
            throw new CaptureRefusedException(r.message());
        }
        return (Ownership.Verdict.Proceed) v;
    }

    /** Keeps the owner record (the state folder exists): in the owner file, and on the publication when it is due now. */
    static void commit(PipelineConfig config, SourceSlots slots, Ownership.Verdict.Proceed p) {
        OwnerFile.write(config.stateDir(), p.owner());
        if (p.recordNow()) {
            record(config, slots, p.owner());
        }
    }

    /**
     * When the publication did not exist at the start, writes the owner record on it once capture has created it, on a
     * daemon thread that ends then or when {@code stopped} turns true.
     */
    static void recordWhenCreated(PipelineConfig config, SourceSlots slots, Ownership.Verdict.Proceed p, BooleanSupplier stopped) {
        if (!p.recordWhenCreated()) {
            return;
        }
        Thread t = new Thread(() -> {
            while (!stopped.getAsBoolean()) {
                try (Connection c = slots.connect()) {
                    if (SourceOwners.publicationExists(c, config.source().publication())) {
                        record(config, slots, p.owner());
                        return;
                    }
                } catch (SQLException e) {
                    log.debug("capture {}: publication not readable yet: {}", config.name(), e.getMessage());
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "tidemark-capture-owner-" + config.name());
        t.setDaemon(true);
        t.start();
    }

    private static void record(PipelineConfig config, SourceSlots slots, SlotOwner owner) {
        try (Connection c = slots.connect()) {
            SourceOwners.record(c, config.source().publication(), owner);
            log.info("capture {}: publication \"{}\" and slot \"{}\" recorded as owned by pipeline {} (owner id {})", config.name(),
                    config.source().publication(), owner.slot(), owner.pipeline(), owner.shortId());
        } catch (SQLException e) {
            log.warn("capture {}: cannot record the owner on publication \"{}\" ({}); the owner file {} still names them", config.name(),
                    config.source().publication(), e.getMessage(), OwnerFile.fileFor(config.stateDir(), config.name()));
        }
    }
}
