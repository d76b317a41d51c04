package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.SourceTls;
import dev.tidemark.event.TableId;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The settings capture gives Debezium's engine and its Kafka producer, derived from the pipeline configuration and
 * the start decided by {@link CaptureStartup}. Pure: builds {@link Properties}, opens nothing.
 */
final class CaptureSettings {
    /** The producer's {@code batch.size} unless {@code kafka.properties} sets one: 1 MiB, chosen with bench/capture.sh. */
    static final int PRODUCER_BATCH_BYTES = 1 << 20;
    /**
     * The largest change event capture sends unless {@code kafka.properties} sets {@code max.request.size}: 16 MiB
     * (Kafka's own default, 1 MB, would stop capture on the first row holding a document of a few megabytes; with
     * REPLICA IDENTITY FULL an update carries the row twice). Capture's topics accept it ({@link #topicMaxMessageBytes}).
     */
    static final int MAX_EVENT_BYTES = 16 << 20;
    /**
     * Debezium's queue between reading the slot and sending is bounded in bytes as well as in events, so a backlog of
     * large rows cannot fill the heap: 32 MiB (16,384 events of ordinary rows take less).
     */
    static final long QUEUE_BYTES = 32L << 20;
    /** What one snapshot fetch may hold in pgjdbc's buffer (its {@code maxResultBuffer}; fetches adapt to it). */
    static final long SNAPSHOT_FETCH_BYTES = 32L << 20;

    private CaptureSettings() {
    }

    /** The pipeline's Kafka properties and brokers, with acks from all replicas and idempotence: what every producer needs. */
    static Properties acknowledgedProducer(PipelineConfig config) {
        Properties p = new Properties();
        p.putAll(config.kafka().properties());
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafka().bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        return p;
    }

    /** Kafka producer settings: acks from all replicas, idempotent, lz4, large batches (see the comments). */
    static Properties producer(PipelineConfig config) {
        Properties p = acknowledgedProducer(config);
        // records are sent a whole engine batch at a time and flushed at its end (handleBatch): lingering only fills
        // Kafka batches while the batch is being sent, it adds no latency to the last record
        p.put(ProducerConfig.LINGER_MS_CONFIG, "50");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        // Kafka's 16 KiB default holds ~7 envelopes of ~2.2 KB: every batch opens an LZ4 frame, which cost ~20 % of
        // capture's CPU in a profile (bench/capture.sh). kafka.properties may set another size.
        p.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(PRODUCER_BATCH_BYTES));
        p.putIfAbsent(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(MAX_EVENT_BYTES));
        // the producer refuses a record larger than its whole buffer: keep room for the largest event and a batch
        long buffer = Math.max(32L << 20, 2L * maxEventBytes(config) + PRODUCER_BATCH_BYTES);
        p.putIfAbsent(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(buffer));
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "tidemark-capture-" + config.name());
        return p;
    }

    /**
     * Debezium engine settings: the user's {@code source.debezium} first (none of them is a key set here, {@link
     * dev.tidemark.connector.config.DebeziumPassThrough} refuses those), then everything Tidemark's guarantees rest on.
     */
    static Properties engine(PipelineConfig config, CaptureStart startMode) {
        Properties p = new Properties();
        // source.debezium first: every key Tidemark sets below is one DebeziumPassThrough refuses, so none is overridden
        p.putAll(config.source().debezium());
        p.setProperty("name", config.name());
        p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        p.setProperty("offset.storage", DurableOffsetBackingStore.class.getName());
        p.setProperty(DurableOffsetBackingStore.FILE_PROPERTY, config.offsetsFile().toString());
        p.setProperty("offset.flush.interval.ms", "1000");
        connection(config.source(), p);
        topics(config, p);
        captured(config.source(), startMode, p);
        tuning(p);
        exactValues(p);
        p.setProperty("errors.max.retries", "5");
        p.setProperty("record.processing.order", "ORDERED");
        return p;
    }

    private static void connection(SourceConfig s, Properties p) {
        p.setProperty("database.hostname", s.host());
        p.setProperty("database.port", Integer.toString(s.port()));
        p.setProperty("database.user", s.user());
        p.setProperty("database.password", s.password().reveal());
        p.setProperty("database.dbname", s.database());
        // the URL's TLS parameters, so the replication connection is as secure as the JDBC ones (refused: SourceTls)
        SourceTls.debeziumSettings(s.jdbcUrl()).forEach(p::setProperty);
        p.setProperty("plugin.name", "pgoutput");
        p.setProperty("slot.name", s.slot());
        p.setProperty("publication.name", s.publication());
        p.setProperty("publication.autocreate.mode", "filtered");
        PublicationSpec.configure(p); // a partitioned table's changes arrive under its root's name
        p.setProperty("poll.interval.ms", Long.toString(s.pollInterval().toMillis()));
    }

    private static void topics(PipelineConfig config, Properties p) {
        p.setProperty("topic.prefix", config.kafka().topicPrefix());
        // each table's topic by Tidemark's naming rule (TopicNames), the name the topics were created with
        p.setProperty("topic.naming.strategy", TidemarkTopicNaming.class.getName());
        p.setProperty(TidemarkTopicNaming.TOPICS_PROPERTY, dev.tidemark.connector.config.TopicNames.encode(config.kafka().topics()));
    }

    /** Which tables, columns, operations and messages are captured, and whether a snapshot comes first. */
    private static void captured(SourceConfig s, CaptureStart startMode, Properties p) {
        p.setProperty("table.include.list", s.tables().stream().map(CaptureSettings::tableRegex).collect(Collectors.joining(",")));
        if (!s.excludeColumns().isEmpty()) {
            p.setProperty("column.exclude.list", s.excludeColumns().stream()
                    .map(c -> tableRegex(c.table()) + "\\." + literalRegex(c.column())).collect(Collectors.joining(",")));
        }
        // --accept-gap without usable offsets: stream from the slot's position, no snapshot
        p.setProperty("snapshot.mode", startMode instanceof CaptureStart.AcceptGap ? "no_data"
                : s.debezium().getOrDefault("snapshot.mode", "initial"));
        // only Tidemark's own position markers (see PositionMarker), never sent to Kafka, its schema changes (DdlTrigger)
        // and its partition truncates (PartitionTruncateTrigger)
        p.setProperty("message.prefix.include.list", SourceSlots.MESSAGE_PREFIX + "," + DdlTrigger.PREFIX + "," + PartitionTruncateTrigger.PREFIX);
        // ... and of its heartbeats (see Heartbeats)
        Heartbeats.configure(s, p);
        // one table re-snapshotted while the others stream (tidemark snapshot, a table added or re-created)
        SnapshotSignals.configure(s, p);
        p.setProperty("tombstones.on.delete", "true");
        // Debezium skips truncates by default ("t"): the target would silently keep every truncated row. Emit them; a
        // sink without target.applyTruncate stops on one, naming the table, instead of keeping the rows.
        p.setProperty("skipped.operations", "none");
    }

    /** Tuning defaults, each unless {@code source.debezium} sets it (they pass through DebeziumPassThrough). */
    private static void tuning(Properties p) {
        // Debezium's lag statistics (a DDSketch per event, fed through a queue of 1,000 drained by one thread) are read by
        // nothing in Tidemark; during a backlog the queue overflows and every dropped sample is a WARN line
        // (MeasurementCollector "queue is full"). Off, each sample costs the publisher nothing and it keeps up.
        p.putIfAbsent("statistics.metrics.enabled", "false");
        p.putIfAbsent("max.batch.size", "2048");
        p.putIfAbsent("max.queue.size", "16384");
        p.putIfAbsent("max.queue.size.in.bytes", Long.toString(QUEUE_BYTES));
        // The snapshot reads its tables through pgjdbc, which holds a whole fetch in memory: Debezium's 10,240 rows of
        // a table of 4 MB documents are 40 GB. The driver sizes each fetch to SNAPSHOT_FETCH_BYTES instead, from the
        // largest row it has seen (the first fetch is one row).
        p.putIfAbsent("snapshot.fetch.size", "1");
        p.putIfAbsent("driver.adaptiveFetch", "true");
        p.putIfAbsent("driver.maxResultBuffer", Long.toString(SNAPSHOT_FETCH_BYTES));
        p.putIfAbsent("driver.adaptiveFetchMaximum", "10240");
    }

    /** Values travel exactly, with their source types, and one Debezium cannot convert stops capture. */
    private static void exactValues(Properties p) {
        // Exact decimals: unscaled bytes + scale in the schema (JSON schemas stay on), never a double.
        p.setProperty("decimal.handling.mode", "precise");
        // ... and an unconstrained numeric keeps its scale (Debezium's own conversion strips trailing zeros)
        p.setProperty("converters", ExactNumericConverter.NAME + "," + SourceTextConverter.NAME);
        p.setProperty(ExactNumericConverter.NAME + ".type", ExactNumericConverter.class.getName());
        // ... and an array keeps PostgreSQL's own text (Debezium turns a multi-dimensional array into nulls)
        p.setProperty(SourceTextConverter.NAME + ".type", SourceTextConverter.class.getName());
        p.setProperty("time.precision.mode", "adaptive_time_microseconds");
        // Exact intervals: ISO-8601 with years, months, days and seconds apart (the default is an approximate count of
        // microseconds, a month taken as 30.4375 days).
        p.setProperty("interval.handling.mode", "string");
        p.setProperty("include.unknown.datatypes", "true");
        // A value Debezium cannot convert (numeric NaN/Infinity without a decimal form, …) stops capture naming the
        // column; the default ("warn") sends the row with NULL in its place.
        p.setProperty("event.converting.failure.handling.mode", "fail");
        // Source column type, length and scale in the schema parameters: the sink maps types exactly.
        p.setProperty("column.propagate.source.type", ".*");
    }

    /** The largest change event capture sends: {@code kafka.properties} {@code max.request.size}, else {@link #MAX_EVENT_BYTES}. */
    static int maxEventBytes(PipelineConfig config) {
        String set = config.kafka().properties().get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        if (set == null) {
            return MAX_EVENT_BYTES;
        }
        try {
            return Integer.parseInt(set.trim());
        } catch (NumberFormatException e) {
            return MAX_EVENT_BYTES; // the producer itself refuses the value, naming it
        }
    }

    /**
     * The {@code max.message.bytes} capture's topics need so that the broker takes every event the producer sends:
     * the largest event plus room for the batch header and for LZ4 framing of data that does not compress.
     */
    static int topicMaxMessageBytes(PipelineConfig config) {
        long event = maxEventBytes(config);
        return (int) Math.min(Integer.MAX_VALUE, event + event / 64 + (64 << 10));
    }

    /** Debezium matches {@code schema.table} against regular expressions; quote every character that is special. */
    static String tableRegex(TableId t) {
        return literalRegex(t.schema()) + "\\." + literalRegex(t.table());
    }

    /** A name as a regular expression matching exactly it (every character but letters, digits and '_' escaped). */
    static String literalRegex(String name) {
        return name.chars()
                .mapToObj(ch -> Character.isLetterOrDigit(ch) || ch == '_' ? Character.toString(ch) : "\\" + (char) ch)
                .collect(Collectors.joining());
    }
}
