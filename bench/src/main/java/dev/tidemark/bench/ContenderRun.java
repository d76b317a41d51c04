package dev.tidemark.bench;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeDecoder;
import dev.tidemark.event.EventOrigin;
import dev.tidemark.sink.jdbc.BatchPlan;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.PartitionOffset;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.sink.kafka.SinkSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * One contender in its own JVM (so its heap and RSS peaks are its own): consumes the whole pre-loaded topic once and
 * prints progress lines, then one {@code RESULT key=value;…} line for the parent ({@link ContenderResult}). The
 * Debezium JDBC sink contenders run in {@link DebeziumJdbcSinkRun} instead, on a class path of their own.
 *
 * <p>Timing: the clock that gives events/s starts when the first batch is committed to the target and stops when the
 * last is; the events of that first batch are not counted. This leaves consumer start-up and the group join out of
 * the rate for every contender alike ({@code wall} includes them).
 */
final class ContenderRun {
    private final ChildOptions o;
    private long decodeNanos = -1;
    private long applyNanos = -1;

    private ContenderRun(ChildOptions o) {
        this.o = o;
    }

    static int run(Map<String, String> options) throws Exception {
        ContenderRun r = new ContenderRun(ChildOptions.of(options));
        try (MemoryPeaks memory = new MemoryPeaks()) {
            Map<TopicPartition, Long> end = TopicDrain.endOffsets(r.o.bootstrap(), r.o.topic());
            long total = TopicDrain.total(end);
            ContenderProgress progress = new ContenderProgress(r.o.contender().id, total);
            switch (r.o.contender()) {
                case TIDEMARK_SQLITE, TIDEMARK_POSTGRES -> r.tidemark(progress, total);
                case STAGES_TIDEMARK_SQLITE, STAGES_TIDEMARK_POSTGRES -> r.stages(progress, end);
                case RAW_SQLITE, RAW_PG_ROWS, RAW_PG_UNNEST -> r.raw(progress, end);
                case KAFKA_ONLY, DECODE_RAW, DECODE_TIDEMARK -> r.noWrites(progress, end);
                case DEBEZIUM_JDBC_POSTGRES, DEBEZIUM_JDBC_POSTGRES_DEFAULT -> throw new IllegalArgumentException(
                        r.o.contender().id + " runs in " + DebeziumJdbcSinkRun.class.getSimpleName() + " on its own class path");
            }
            ContenderResult.print(r.o, total, progress, memory, r.decodeNanos, r.applyNanos);
        }
        return 0;
    }

    /** The real thing: KafkaSinkRunner on its own threads, watched from here every 10 ms. */
    private void tidemark(ContenderProgress progress, long total) throws Exception {
        JdbcChangeSink sink = JdbcChangeSink.open(o.url(), o.jdbcProperties(), SinkOptions.defaults(o.group()));
        KafkaSinkRunner runner = new KafkaSinkRunner(new SinkSettings(o.bootstrap(), o.group(), List.of(o.topic()), o.batch(),
                Duration.ofMillis(200), new ReplayFrom.Stored(), o.consumerExtra()), sink);
        Thread thread = new Thread(runner, "tidemark-sink");
        thread.start();
        while (runner.eventsApplied() < total) {
            if (runner.isFinished()) {
                throw new IllegalStateException("the sink stopped after " + runner.eventsApplied() + " events: "
                        + runner.failure().map(Throwable::toString).orElse("no failure recorded"));
            }
            progress.observe(runner.eventsApplied());
            Thread.sleep(10); // ±10 ms on a run of tens of seconds; a 1 ms loop cost this contender ~2.5 s of CPU
        }
        progress.observe(runner.eventsApplied());
        progress.done();
        runner.close();
    }

    /** The sink loop written out on one thread (decode, apply, informational commitAsync), to time decoding and applying apart; KafkaSinkRunner overlaps the two. */
    private void stages(ContenderProgress progress, Map<TopicPartition, Long> end) throws Exception {
        EnvelopeDecoder decoder = new EnvelopeDecoder();
        decodeNanos = 0;
        applyNanos = 0;
        try (JdbcChangeSink sink = JdbcChangeSink.open(o.url(), o.jdbcProperties(), SinkOptions.defaults(o.group()));
             KafkaConsumer<byte[], byte[]> consumer = o.consumer()) {
            TopicDrain.drain(consumer, o.topic(), end, progress, records -> {
                long t0 = System.nanoTime();
                List<ChangeEvent> events = new ArrayList<>(records.count());
                Map<TopicPartition, PartitionOffset> next = new LinkedHashMap<>();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    events.add(decoder.decode(new EventOrigin(r.topic(), r.partition(), r.offset(), r.key()), r.key(), r.value()));
                    next.put(new TopicPartition(r.topic(), r.partition()), new PartitionOffset(r.topic(), r.partition(), r.offset() + 1));
                }
                long t1 = System.nanoTime();
                sink.apply(events, next.values());
                long t2 = System.nanoTime();
                decodeNanos += t1 - t0;
                applyNanos += t2 - t1;
                Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
                next.forEach((tp, offset) -> commit.put(tp, new OffsetAndMetadata(offset.nextOffset())));
                consumer.commitAsync(commit, null); // as KafkaSinkRunner does (informational)
            });
            progress.done();
        }
    }

    /** The hand-written baseline: decode, collapse per key, one transaction per batch. */
    private void raw(ContenderProgress progress, Map<TopicPartition, Long> end) throws Exception {
        RawChange.Decoder decoder = new RawChange.Decoder();
        decodeNanos = 0;
        applyNanos = 0;
        try (RawTarget target = RawTarget.open(o.contender().id, o.url(), o.user()); KafkaConsumer<byte[], byte[]> consumer = o.consumer()) {
            Map<Long, RawChange> collapsed = new LinkedHashMap<>();
            TopicDrain.drain(consumer, o.topic(), end, progress, records -> {
                long t0 = System.nanoTime();
                collapsed.clear();
                Map<TopicPartition, Long> next = new HashMap<>();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    decoder.collapse(r.value(), collapsed);
                    next.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
                }
                long t1 = System.nanoTime();
                target.apply(collapsed.values(), next);
                decodeNanos += t1 - t0;
                applyNanos += System.nanoTime() - t1;
            });
            progress.done();
        }
    }

    /** Breakdown runs: consume (and decode) without writing. */
    private void noWrites(ContenderProgress progress, Map<TopicPartition, Long> end) throws Exception {
        RawChange.Decoder raw = new RawChange.Decoder();
        EnvelopeDecoder tidemark = new EnvelopeDecoder();
        decodeNanos = 0;
        long[] sink = {0};
        try (KafkaConsumer<byte[], byte[]> consumer = o.consumer()) {
            Map<Long, RawChange> collapsed = new LinkedHashMap<>();
            TopicDrain.drain(consumer, o.topic(), end, progress, records -> {
                long t0 = System.nanoTime();
                List<ChangeEvent> events = new ArrayList<>(records.count());
                collapsed.clear();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    switch (o.contender()) {
                        case DECODE_RAW -> raw.collapse(r.value(), collapsed);
                        case DECODE_TIDEMARK -> events.add(tidemark.decode(new EventOrigin(r.topic(), r.partition(), r.offset(), r.key()), r.key(), r.value()));
                        default -> sink[0] += r.serializedValueSize();
                    }
                }
                if (o.contender() == Contender.DECODE_TIDEMARK) {
                    sink[0] += BatchPlan.of(events).size();
                }
                decodeNanos += System.nanoTime() - t0;
            });
            progress.done();
        }
        if (sink[0] == Long.MIN_VALUE) {
            System.out.println(sink[0]); // keeps the work observable
        }
    }
}
