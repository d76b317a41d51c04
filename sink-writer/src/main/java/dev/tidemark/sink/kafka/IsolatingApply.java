package dev.tidemark.sink.kafka;

import static dev.tidemark.sink.kafka.Pending.nextOffsets;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.PoisonEventException;
import dev.tidemark.sink.jdbc.ApplyResult;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The apply thread's writing of one decoded poll to the target through {@link PoisonIsolator}: undecodable records,
 * and records the target rejects by themselves (a constraint or data rule: {@link dev.tidemark.jdbc.Failure.RowRejected}),
 * are isolated; each applied part commits with its own offsets. An isolated record stops the sink naming it when the
 * pipeline has no dead-letter topic; with one, it goes there ({@link DeadLetters}) and only after Kafka acknowledged
 * it is its offset moved past it. Apply thread only; the counts may be read from any thread.
 */
final class IsolatingApply implements AutoCloseable {
    /** The runner's logger: these lines read as the sink's. */
    private static final Logger log = LoggerFactory.getLogger(KafkaSinkRunner.class);

    private final SinkSettings settings;
    private final JdbcChangeSink sink;
    private final Supplier<SinkMetrics> metrics;
    private final DeadLetters deadLetters;
    private final PoisonIsolator<Pending> isolator = new PoisonIsolator<>(Pending::failure);
    private final AtomicLong eventsApplied = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();

    IsolatingApply(SinkSettings settings, JdbcChangeSink sink, Supplier<SinkMetrics> metrics) {
        this.settings = settings;
        this.sink = sink;
        this.metrics = metrics;
        this.deadLetters = new DeadLetters(settings);
    }

    /** Applies {@code items} in order; throws what stops the sink, with nothing of the failed part committed. */
    void apply(List<Pending> items) {
        isolator.apply(items, new PoisonIsolator.Target<>() {
            @Override
            public void apply(List<Pending> part) {
                List<ChangeEvent> events = part.stream().map(Pending::event).toList();
                long began = System.nanoTime();
                ApplyResult result = sink.apply(events, nextOffsets(part));
                eventsApplied.addAndGet(events.size());
                SinkReport.applied(metrics.get(), events, System.nanoTime() - began);
                log.debug("applied {}", result);
            }

            @Override
            public void isolate(Pending record, RuntimeException reason) {
                poison(record, reason);
            }
        });
    }

    private void poison(Pending p, RuntimeException reason) {
        String why = PoisonReason.of(reason);
        if (settings.deadLetterTopic() == null) {
            throw new PoisonEventException(p.origin(), why + " (no dead-letter topic configured; offsets not advanced)", reason);
        }
        deadLetters.send(p, why);
        sink.apply(List.of(), nextOffsets(List.of(p)));
        deadLettered.incrementAndGet();
        log.warn("{} sent to dead-letter topic {}: {}", p.origin().describe(), settings.deadLetterTopic(), why);
    }

    /** Change events committed to the target so far. */
    long eventsApplied() {
        return eventsApplied.get();
    }

    /** Records sent to the dead-letter topic so far. */
    long deadLettered() {
        return deadLettered.get();
    }

    /** Closes the dead-letter producer, if one was opened. */
    @Override
    public void close() {
        deadLetters.close();
    }
}
