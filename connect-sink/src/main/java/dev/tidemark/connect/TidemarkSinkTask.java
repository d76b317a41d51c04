package dev.tidemark.connect;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeDecoder;
import dev.tidemark.jdbc.RetryPolicy;
import dev.tidemark.jdbc.SinkException;
import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.OffsetsFencedException;
import dev.tidemark.sink.jdbc.PartitionOffset;
import dev.tidemark.sink.kafka.PoisonIsolator;
import dev.tidemark.sink.kafka.PoisonReason;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Connect task of the Tidemark sink: applies Debezium change envelopes to a JDBC target through
 * {@link JdbcChangeSink}, keeping the sink's promise under Connect.
 *
 * <ul>
 *   <li>Each {@link #put} part (at most {@code batch.size} records) is one target transaction holding the rows and
 *       the partitions' next offsets ({@code tidemark_offsets}): both commit, or neither.</li>
 *   <li>The target's offsets win: {@link #open} reads them and seeks every opened partition there
 *       ({@link SeekPlan}); {@link #preCommit} returns only offsets committed in the target ({@link TargetCommits}),
 *       so Connect's Kafka commits never run ahead of the target.</li>
 *   <li>A partition resumed at a stored offset whose target table no longer exists (dropped, or {@code target.tables}
 *       changed) stops the task before its first write, naming the way on ({@link ResumedTable}); so does one whose
 *       target table holds no rows while the records applied last, read again when it opens
 *       ({@link ResumeWindow}), leave rows in it (emptied by hand).</li>
 *   <li>The position guard of the sink: an event older than a row's stored source position never overwrites it.</li>
 *   <li>Fencing: if another task moved a partition's stored offset (it owns the partition now), this task's
 *       transaction rolls back whole and it seeks its partitions to the stored offsets again.</li>
 *   <li>A record that cannot be decoded, or that the target rejects by itself, is isolated (the records around it
 *       are applied) and, per {@link PoisonRoute}, reported to Connect's dead-letter queue through the errant-record
 *       reporter (the offset moves past it only after the report is acknowledged) or stops the task with one line
 *       naming topic, partition, offset and key (offsets not advanced).</li>
 *   <li>A transient failure of the target in {@link #put} (a lost connection, a busy or restarting database) rolls
 *       back the failed part and hands the backoff to the worker ({@link Redelivery}: {@code context.timeout}, then
 *       {@link RetriableException}); the worker delivers the same records again after the wait, and the parts
 *       already committed are harmless to apply again (position guard, offsets compare-and-set). The reads of
 *       {@link #open} have no redelivery to lean on: there the sink retries by itself.</li>
 *   <li>Faults of the target (privileges, missing objects) and transient failures beyond the attempts stop the task
 *       with one line; nothing of the failed part is committed.</li>
 * </ul>
 *
 * <p>Threads: Connect calls every method from the task's one thread.
 */
public final class TidemarkSinkTask extends SinkTask {
    private static final Logger log = LoggerFactory.getLogger(TidemarkSinkTask.class);
    private static final long REPORT_TIMEOUT_SECONDS = 60;

    private final EnvelopeDecoder decoder = new EnvelopeDecoder();
    private final TargetCommits commits = new TargetCommits();
    private final PoisonIsolator<Incoming> isolator = new PoisonIsolator<>(Incoming::failure);
    private final Redelivery redelivery = new Redelivery(RetryPolicy.DEFAULT, () -> ThreadLocalRandom.current().nextDouble());
    private RecordBytes bytes;
    private ConnectSinkSettings settings;
    private JdbcChangeSink sink;
    private ErrantRecordReporter reporter;
    private PoisonRoute route;
    private long applied;
    private long reported;
    /** Opened partitions resumed at a stored offset above 0 whose target table is not checked yet ({@link ResumedTable}). */
    private final Map<TopicPartition, Long> resumed = new HashMap<>();
    /** Opened partitions resumed at a stored offset above 0 whose records applied before are being read again. */
    private final Map<TopicPartition, ResumeWindow> windows = new HashMap<>();
    private String connector;

    @Override
    public String version() {
        return TidemarkSinkConnector.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        settings = ConnectSinkConfig.parse(props);
        connector = props.getOrDefault(ConnectSinkConfig.CONNECTOR_NAME, settings.options().pipeline());
        bytes = new RecordBytes();
        reporter = settings.poison() == PoisonRoute.DEAD_LETTER ? context.errantRecordReporter() : null;
        route = settings.poison().given(reporter != null);
        try {
            sink = JdbcChangeSink.open(settings.targetUrl(), ConnectSinkConfig.connectionProperties(settings), settings.options())
                    .withRetry(RetryPolicy.NONE); // the worker owns the retries of put (see handOver)
        } catch (SQLException | RuntimeException e) {
            throw new ConnectException("cannot open the target " + UrlMask.mask(settings.targetUrl()) + ": "
                    + UrlMask.mask(String.valueOf(e.getMessage()), settings.targetUrl()), e);
        }
        log.info("tidemark sink task started: {} (poison records: {})", settings, route);
    }

    @Override
    public void open(Collection<TopicPartition> partitions) {
        Map<String, Map<Integer, Long>> stored = storedOffsets();
        Map<TopicPartition, Long> seeks = new LinkedHashMap<>(SeekPlan.plan(partitions, stored));
        commits.read(SeekPlan.storedOnly(partitions, stored));
        SeekPlan.storedOnly(partitions, stored).forEach((tp, at) -> {
            if (at > 0) {
                resumed.put(tp, at);
                ResumeWindow window = new ResumeWindow(at);
                windows.put(tp, window);
                seeks.put(tp, window.start());
            }
        });
        context.offset(seeks);
        log.info("pipeline {}: opened {}; target's offsets {}; seeking to {} (the records just below a stored offset are read"
                + " again, not applied, to check their target tables)", settings.options().pipeline(), partitions,
                SeekPlan.storedOnly(partitions, stored), seeks);
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        if (records.isEmpty()) {
            return;
        }
        try {
            List<Incoming> items = withoutWindows(Incoming.decode(decoder, bytes, records));
            checkResumed(items);
            for (int from = 0; from < items.size(); from += settings.batchSize()) {
                isolator.apply(items.subList(from, Math.min(items.size(), from + settings.batchSize())), target());
            }
            redelivery.succeeded();
        } catch (OffsetsFencedException fenced) {
            log.warn("pipeline {}: {}; seeking to the stored offsets again", settings.options().pipeline(), fenced.getMessage());
            rewindToStored();
        } catch (SinkException e) {
            throw e.isTransient() ? handOver(e) : new ConnectException(e.getMessage(), e);
        }
    }

    /**
     * A transient failure: asks the worker to wait and deliver the records again ({@link Redelivery}), or, with the
     * attempts used up, stops the task with one line.
     */
    private ConnectException handOver(SinkException e) {
        Redelivery.Next next = redelivery.failed(e.getMessage());
        if (next instanceof Redelivery.Backoff b) {
            log.warn("pipeline {}: transient target failure, the worker delivers the records again in {} ms (attempt {} of {}): {}",
                    settings.options().pipeline(), b.waitMs(), b.attempt(), RetryPolicy.DEFAULT.attempts(), e.getMessage());
            context.timeout(b.waitMs());
            return new RetriableException(e.getMessage(), e);
        }
        return new ConnectException(((Redelivery.GiveUp) next).line(), e);
    }

    /**
     * Takes out the records of open {@link ResumeWindow}s (applied before); when one completes, checks the target
     * tables its records name ({@link #checkWindow}).
     */
    private List<Incoming> withoutWindows(List<Incoming> items) {
        List<Incoming> out = new ArrayList<>(items.size());
        for (Incoming i : items) {
            TopicPartition tp = new TopicPartition(i.record().originalTopic(), i.record().originalKafkaPartition());
            ResumeWindow window = windows.get(tp);
            long offset = i.record().originalKafkaOffset();
            if (window == null) {
                out.add(i);
                continue;
            }
            if (window.holds(offset)) {
                window.collect(i.event());
            } else {
                out.add(i);
            }
            if (window.completedBy(offset)) {
                windows.remove(tp);
                checkWindow(tp, window);
            }
        }
        return out;
    }

    /**
     * Every target table a completed window names must hold a row where its records leave one
     * ({@link ResumedTable#emptied}), and exist ({@link ResumedTable#refusal}); else the task stops with one line.
     */
    private void checkWindow(TopicPartition tp, ResumeWindow window) {
        String pipeline = settings.options().pipeline();
        window.leaveARow().forEach((table, leaves) -> {
            String target = settings.options().targetTables().of(table);
            JdbcChangeSink.TableFound found = sink.findTable(target);
            Optional<String> refusal = found.exists()
                    ? ResumedTable.emptied(tp, window.stored(), table, target, found.holdsRows(), leaves, pipeline, connector)
                    : leaves ? ResumedTable.refusal(tp, window.stored(), table, target, false, found.written(), pipeline, connector)
                    : Optional.empty();
            if (refusal.isPresent()) {
                throw new ConnectException(refusal.get());
            }
        });
    }

    /**
     * Before the first row change of a partition resumed at a stored offset is applied: its target table must exist
     * ({@link ResumedTable}), else the task stops with one line naming topic, partition, table and the way on.
     */
    private void checkResumed(List<Incoming> items) {
        for (Incoming i : items) {
            TopicPartition tp = new TopicPartition(i.record().originalTopic(), i.record().originalKafkaPartition());
            if (!(i.event() instanceof ChangeEvent.Upsert || i.event() instanceof ChangeEvent.Delete) || !resumed.containsKey(tp)) {
                continue;
            }
            String target = settings.options().targetTables().of(i.event().table());
            JdbcChangeSink.TableFound found = sink.findTable(target);
            Optional<String> refusal = ResumedTable.refusal(tp, resumed.get(tp), i.event().table(), target, found.exists(),
                    found.written(), settings.options().pipeline(), connector);
            if (refusal.isPresent()) {
                throw new ConnectException(refusal.get());
            }
            resumed.remove(tp);
        }
    }

    private PoisonIsolator.Target<Incoming> target() {
        return new PoisonIsolator.Target<>() {
            @Override
            public void apply(List<Incoming> part) {
                List<ChangeEvent> events = part.stream().map(Incoming::event).toList();
                List<PartitionOffset> next = Incoming.nextOffsets(part);
                sink.apply(events, next);
                commits.committed(next);
                applied += events.size();
            }

            @Override
            public void isolate(Incoming record, RuntimeException reason) {
                poison(record, reason);
            }
        };
    }

    /**
     * A record that cannot be applied: reported to Connect's dead-letter queue (then its offset is committed past it)
     * or the task stops naming it.
     */
    private void poison(Incoming item, RuntimeException reason) {
        String where = item.origin().describe();
        String why = PoisonReason.of(reason).replaceAll("\\s*\\R\\s*", " "); // one line, whatever the parser said
        if (route != PoisonRoute.DEAD_LETTER) {
            throw new ConnectException(where + ": " + why + " (no dead-letter queue configured: errors.tolerance=all and"
                    + " errors.deadletterqueue.topic.name; offsets not advanced)", reason);
        }
        try {
            reporter.report(item.record(), reason).get(REPORT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException(where + ": interrupted while reporting it to the dead-letter queue", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new ConnectException(where + ": reporting it to the dead-letter queue failed (" + e + "); offsets not advanced", e);
        }
        List<PartitionOffset> next = Incoming.nextOffsets(List.of(item));
        sink.apply(List.of(), next);
        commits.committed(next);
        reported++;
        log.warn("{} reported to the dead-letter queue: {}", where, why);
    }

    /** After a fence: every partition of this task starts again at the offsets stored in the target. */
    private void rewindToStored() {
        Collection<TopicPartition> assigned = context.assignment();
        Map<String, Map<Integer, Long>> stored = storedOffsets();
        commits.forget(assigned);
        commits.read(SeekPlan.storedOnly(assigned, stored));
        Map<TopicPartition, Long> seeks = new LinkedHashMap<>(SeekPlan.plan(assigned, stored));
        windows.forEach((tp, window) -> {
            window.restart();
            seeks.put(tp, window.start());
        });
        context.offset(seeks);
    }

    /** The target's stored offsets, read with the sink's own retries (no redelivery follows a failed read). */
    private Map<String, Map<Integer, Long>> storedOffsets() {
        return retryingInSink(sink::storedOffsets);
    }

    private <T> T retryingInSink(Supplier<T> read) {
        sink.withRetry(RetryPolicy.DEFAULT);
        try {
            return read.get();
        } catch (SinkException e) {
            throw new ConnectException(e.getMessage(), e);
        } finally {
            sink.withRetry(RetryPolicy.NONE);
        }
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        return commits.forKafka(currentOffsets);
    }

    @Override
    public void close(Collection<TopicPartition> partitions) {
        commits.forget(partitions);
        resumed.keySet().removeAll(partitions);
        windows.keySet().removeAll(partitions);
    }

    @Override
    public void stop() {
        if (sink != null) {
            sink.close();
            sink = null;
        }
        log.info("tidemark sink task stopped after applying {} events ({} reported to the dead-letter queue)", applied, reported);
    }
}
