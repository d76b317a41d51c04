package dev.tidemark.cli.proof;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.jdbc.Durations;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sidecar's scheduled reconcile ({@code reconcile:} in the pipeline file): a slot every {@code reconcile.every},
 * the first one period after the start; each slot starts a {@link ScheduledRun} on a worker thread of its own, or is
 * skipped with a log line when the previous run is still going ({@link ReconcileSlots#at}). Runs read the source and
 * target on their own connections, never capture's or the sink's. {@link #close} stops the slots and interrupts a run.
 */
public final class ReconcileScheduler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ReconcileScheduler.class);

    private final PipelineConfig config;
    private final String holder;
    private final Clock clock = Clock.systemUTC();
    private final AtomicReference<Instant> running = new AtomicReference<>();
    private final ScheduledExecutorService slots = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "tidemark-reconcile-slots"));
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> daemon(r, "tidemark-reconcile"));

    private ReconcileScheduler(PipelineConfig config, String holder) {
        this.config = config;
        this.holder = holder;
    }

    /** Starts the slots when the pipeline file has a {@code reconcile:} section; else empty. */
    public static Optional<ReconcileScheduler> start(PipelineConfig config, String holder) {
        if (!config.reconcile().enabled()) {
            return Optional.empty();
        }
        ReconcileScheduler s = new ReconcileScheduler(config, holder);
        long every = config.reconcile().every().toMillis();
        s.slots.scheduleAtFixedRate(s::slot, every, every, TimeUnit.MILLISECONDS);
        log.info("scheduled reconcile of {}: every {}, tables {}, repair {}", config.name(), Durations.format(config.reconcile().every()),
                config.reconcile().tables(), config.reconcile().repair().name().toLowerCase(java.util.Locale.ROOT));
        return Optional.of(s);
    }

    private void slot() {
        Instant now = clock.instant();
        ReconcileSlots.Decision d = ReconcileSlots.at(now, Optional.ofNullable(running.get()), config.name());
        if (d instanceof ReconcileSlots.Skip skip) {
            log.warn(skip.line());
        } else if (d instanceof ReconcileSlots.Start start) {
            running.set(start.slot());
            worker.execute(this::runOnce);
        }
    }

    private void runOnce() {
        try {
            new ScheduledRun(config, holder, clock).run();
        } catch (Exception e) {
            log.warn("scheduled reconcile of {}: run failed: {}", config.name(), dev.tidemark.jdbc.UrlMask.mask(String.valueOf(e.getMessage())));
        } finally {
            running.set(null);
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    @Override
    public void close() {
        slots.shutdownNow();
        worker.shutdownNow();
    }
}
