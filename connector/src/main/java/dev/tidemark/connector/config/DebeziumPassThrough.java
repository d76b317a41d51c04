package dev.tidemark.connector.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which {@code source.debezium} settings may go to the Debezium engine as they are. Tidemark owns the settings its
 * guarantees rest on — where offsets are stored and how a restart resumes, which slot, publication and tables, how
 * records are converted, keyed and routed, which operations reach Kafka — and refuses each of those naming the key and
 * why; everything else (snapshot tuning, column include/exclude lists, masking and truncation, batch and queue sizes,
 * retries, SSL options, …) passes through.
 *
 * <p>Pure: one decision per key and value, no I/O; the parser collects the refusals as configuration problems.
 */
public final class DebeziumPassThrough {
    /** The snapshot modes that keep Tidemark's start checks true: snapshot once, or never (changes from now only). */
    public static final Set<String> SNAPSHOT_MODES = Set.of("initial", "no_data");

    /** The name capture registers its exact-numeric converter under ({@code ExactNumericConverter.NAME}). */
    static final String CONVERTER = "tidemarknumeric";
    /** The name capture registers its source-text converter under ({@code SourceTextConverter.NAME}). */
    static final String TEXT_CONVERTER = "tidemarktext";

    /** Exact keys Tidemark sets itself, each with why a value from the user is refused. */
    private static final Map<String, String> OWNED = Map.ofEntries(
            Map.entry("name", "the engine is named after the pipeline (name)"),
            Map.entry("connector.class", "Tidemark captures with the PostgreSQL connector only"),
            Map.entry("plugin.name", "Tidemark decodes with pgoutput"),
            Map.entry("slot.name", "set source.slot"),
            Map.entry("slot.drop.on.stop", "dropping the slot on stop loses every change made while capture is stopped; "
                    + "remove a pipeline with tidemark drop"),
            Map.entry("flush.lsn.source", "the slot must follow the stored offsets, or it retains WAL for ever"),
            Map.entry("lsn.flush.mode", "the slot must follow the stored offsets, or it retains WAL for ever"),
            Map.entry("replica.identity.autoset.values", "set source.setReplicaIdentityFull (updates and deletes need full "
                    + "before-images)"),
            Map.entry("publish.via.partition.root", "Tidemark creates the publication for source.tables"),
            Map.entry("snapshot.isolation.mode", "the snapshot must be one consistent view to hand over to streaming"),
            Map.entry("hstore.handling.mode", "the sink maps types from Tidemark's settings"),
            Map.entry("money.fraction.digits", "the sink maps types from Tidemark's settings"),
            Map.entry("publication.name", "set source.publication"),
            Map.entry("signal.data.collection", "Tidemark owns the signal table (tidemark snapshot)"),
            Map.entry("signal.enabled.channels", "Tidemark owns the signal table (tidemark snapshot)"),
            Map.entry("incremental.snapshot.watermarking.strategy", "Tidemark's snapshot sweep relies on its watermarks"),
            Map.entry("publication.autocreate.mode", "Tidemark creates the publication for source.tables"),
            Map.entry("table.include.list", "set source.tables"),
            Map.entry("table.exclude.list", "set source.tables"),
            Map.entry("schema.include.list", "set source.tables"),
            Map.entry("schema.exclude.list", "set source.tables"),
            Map.entry("database.hostname", "set source.url"),
            Map.entry("database.port", "set source.url"),
            Map.entry("database.dbname", "set source.url"),
            Map.entry("database.user", "set source.user"),
            Map.entry("database.password", "set source.password"),
            Map.entry("converters", "Tidemark's converters keep numeric scale and array text exactly"),
            Map.entry("decimal.handling.mode", "decimals travel exactly (precise); another mode changes the target's values"),
            Map.entry("time.precision.mode", "the sink maps temporal types from Tidemark's setting"),
            Map.entry("interval.handling.mode", "intervals travel exactly as ISO-8601 text"),
            Map.entry("binary.handling.mode", "bytea travels as bytes; another mode changes the target's values"),
            Map.entry("column.propagate.source.type", "the sink maps types from the source types Tidemark propagates"),
            Map.entry("include.unknown.datatypes", "capture refuses types it cannot carry at start instead"),
            Map.entry("event.converting.failure.handling.mode", "a value Debezium cannot convert must stop capture, not "
                    + "reach the target as NULL"),
            Map.entry("tombstones.on.delete", "the sink relies on a delete followed by its tombstone"),
            Map.entry("skipped.operations", "skipping an operation would leave the target silently different (use "
                    + "target.applyTruncate or target.deleteMode)"),
            Map.entry("message.key.columns", "keys are the primary key: partitions and the target's upserts rest on it"),
            Map.entry("message.prefix.include.list", "only Tidemark's own position and heartbeat messages are streamed"),
            Map.entry("message.prefix.exclude.list", "only Tidemark's own position and heartbeat messages are streamed"),
            Map.entry("provide.transaction.metadata", "transaction records would go to a topic Tidemark does not create"),
            Map.entry("poll.interval.ms", "set source.pollIntervalMs"),
            Map.entry("heartbeat.interval.ms", "set source.heartbeat.interval"),
            Map.entry("heartbeat.action.query", "Tidemark's heartbeat writes its own logical decoding message (source.heartbeat)"),
            Map.entry("snapshot.mode.custom.name", "snapshot.mode is limited to " + List.copyOf(SNAPSHOT_MODES)));

    /** Key prefixes Tidemark owns: every key starting with one is refused, with why. */
    private static final Map<String, String> OWNED_PREFIXES = Map.of(
            "offset.", "capture keeps its offsets in stateDir itself, flushed after Kafka acknowledged the records",
            "topic.", "topics are named by Tidemark (kafka.topicPrefix, kafka.topics) and created by it",
            "key.converter", "records are converted by Tidemark once, with JSON schemas",
            "value.converter", "records are converted by Tidemark once, with JSON schemas",
            "header.converter", "records are converted by Tidemark once, with JSON schemas",
            "transforms", "a transformation could drop, reroute or rewrite records after Tidemark's checks",
            "predicates", "a transformation could drop, reroute or rewrite records after Tidemark's checks",
            "record.processing.", "records are handed over in commit order, one batch at a time",
            "signal.", "ad-hoc and incremental snapshots are not covered by capture's resume checks",
            "incremental.snapshot", "ad-hoc and incremental snapshots are not covered by capture's resume checks");

    private DebeziumPassThrough() {
    }

    /**
     * Why {@code key} (with {@code value}) may not be passed to the engine, or empty when it may.
     *
     * @param excludeColumnsSet whether {@code source.excludeColumns} is set (it owns {@code column.exclude.list} then)
     */
    public static Optional<String> refusal(String key, String value, boolean excludeColumnsSet) {
        String k = key.trim();
        String owned = OWNED.get(k);
        if (owned != null) {
            return Optional.of("Tidemark sets " + k + " itself: " + owned);
        }
        for (Map.Entry<String, String> p : OWNED_PREFIXES.entrySet()) {
            if (k.startsWith(p.getKey())) {
                return Optional.of("Tidemark sets " + p.getKey() + "* itself: " + p.getValue());
            }
        }
        if (k.equals(CONVERTER) || k.startsWith(CONVERTER + ".")) {
            return Optional.of("Tidemark sets " + k + " itself: its converter keeps numeric scale exactly");
        }
        if (k.equals(TEXT_CONVERTER) || k.startsWith(TEXT_CONVERTER + ".")) {
            return Optional.of("Tidemark sets " + k + " itself: its converter carries arrays as PostgreSQL's text");
        }
        if (k.equals("snapshot.mode") && !SNAPSHOT_MODES.contains(value == null ? "" : value.trim())) {
            return Optional.of("snapshot.mode " + value + " is not one Tidemark can resume safely; use one of "
                    + List.copyOf(SNAPSHOT_MODES).stream().sorted().toList() + " (a re-snapshot is tidemark capture --resnapshot)");
        }
        if ((k.equals("column.exclude.list") || k.equals("column.include.list")) && excludeColumnsSet) {
            return Optional.of("source.excludeColumns is set too: list the columns in one place");
        }
        return Optional.empty();
    }

}
