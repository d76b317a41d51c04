package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.TopicNames;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Databases;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Every check capture makes before it changes anything on the source, in Kafka or in the state folder, in this order:
 * the topic names (pure), the pipeline not running already ({@link CaptureGuard}), the replica identities of resumed
 * tables ({@link IdentityAtStartCheck}), the source ({@link SourcePreflight}: one line per problem, no Kafka needed),
 * the enum types of a PostgreSQL target ({@link EnumTargetCheck}), then the slot's and publication's owner and the existing topics' partition counts, then the caller's
 * {@code beforeChanges}. The first that fails throws; nothing is held or changed by a refused start.
 */
final class CaptureChecks {
    /**
     * What the checks found.
     *
     * @param config     the pipeline with the metadata columns of captured Tidemark targets excluded
     * @param identities the captured tables' replica identities before the preflight may set FULL (empty when unread)
     * @param owned      what {@link CaptureGuard} found about the slot and publication
     */
    record Passed(PipelineConfig config, Map<TableId, String> identities, Ownership.Verdict.Proceed owned) {
    }

    private CaptureChecks() {
    }

    static Passed run(PipelineConfig pipeline, SourceSlots slots, CaptureChoice choice, String configLabel, Runnable beforeChanges) {
        // every table's topic a valid, distinct Kafka topic name (pure, before any I/O)
        TopicNames.requireValid(pipeline.kafka(), pipeline.source().tables());
        // a captured Tidemark target's own metadata columns are not captured; a clash with the sink's columns refused
        PipelineConfig config = TidemarkTargetSources.excludingMetadata(pipeline);
        CaptureGuard.refuseIfLocked(config);
        Map<TableId, String> identities = replicaIdentities(config, slots);
        // before the preflight sets FULL back: a resumed table whose identity changed unseen stops here
        IdentityAtStartCheck.refuseIfChanged(config, slots, choice, identities, configLabel);
        AtomicReference<Ownership.Verdict.Proceed> guard = new AtomicReference<>();
        SourcePreflight.check(config.source(), TypeSupport.target(Databases.forUrl(config.target().jdbcUrl())), () -> {
            EnumTargetCheck.check(config);
            guard.set(CaptureGuard.check(config, slots, choice, configLabel));
            CaptureTopics.checkExisting(config);
            beforeChanges.run();
        });
        return new Passed(config, identities, guard.get());
    }

    private static Map<TableId, String> replicaIdentities(PipelineConfig config, SourceSlots slots) {
        try (Connection c = slots.connect()) {
            return ReplicaIdentities.read(c, config.source().tables());
        } catch (SQLException e) {
            return Map.of(); // the preflight reports the source itself
        }
    }
}
