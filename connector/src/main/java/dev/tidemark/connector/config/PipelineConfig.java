package dev.tidemark.connector.config;

import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.util.List;

/**
 * One pipeline: a PostgreSQL source captured with Debezium, the Kafka topics in between, and a JDBC target.
 * Parsed and validated once by {@link PipelineConfigParser}; immutable.
 *
 * @param name     pipeline name: Debezium engine name, Kafka consumer group, offsets row owner in the target
 * @param stateDir where capture keeps Debezium's offsets file
 * @param observability the HTTP endpoint, {@link ObservabilityConfig#OFF} unless configured
 * @param reconcile the sidecar's scheduled reconcile, {@link ReconcileSchedule#OFF} unless configured
 */
public record PipelineConfig(String name, SourceConfig source, KafkaConfig kafka, TargetConfig target, Path stateDir,
                             ObservabilityConfig observability, ReconcileSchedule reconcile) {

    public PipelineConfig {
        observability = observability == null ? ObservabilityConfig.OFF : observability;
        reconcile = reconcile == null ? ReconcileSchedule.OFF : reconcile;
    }

    /** A pipeline without a scheduled reconcile. */
    public PipelineConfig(String name, SourceConfig source, KafkaConfig kafka, TargetConfig target, Path stateDir,
                          ObservabilityConfig observability) {
        this(name, source, kafka, target, stateDir, observability, ReconcileSchedule.OFF);
    }

    /** A pipeline without the HTTP endpoint. */
    public PipelineConfig(String name, SourceConfig source, KafkaConfig kafka, TargetConfig target, Path stateDir) {
        this(name, source, kafka, target, stateDir, ObservabilityConfig.OFF, ReconcileSchedule.OFF);
    }

    /** The Kafka topic that carries a table's events ({@link TopicNames}: capture, sink, status and drop agree). */
    public String topicFor(TableId table) {
        return TopicNames.of(kafka.topicPrefix(), table, kafka.topics());
    }

    /** The target table that receives a table's rows ({@code target.tables}: sink, reconcile and drop agree). */
    public String targetTableFor(TableId table) {
        return target.tables().of(table);
    }

    public List<String> topics() {
        return source.tables().stream().map(this::topicFor).toList();
    }

    /** Debezium's offsets file for this pipeline. */
    public Path offsetsFile() {
        return stateDir.resolve(name + ".offsets");
    }

    /**
     * The effective configuration for the log, with secrets masked: of {@code kafka.properties}, only the security
     * protocol and SASL mechanism are said, never a JAAS line or a store password.
     */
    public String describe() {
        return "pipeline " + name + ": source " + UrlMask.mask(source.jdbcUrl()) + " user " + source.user()
                + (source.password().isEmpty() ? " without password" : " password " + source.password()) + " tables " + source.tables() + " slot " + source.slot() + " → kafka "
                + kafka.bootstrapServers() + (kafka.properties().containsKey("security.protocol") ? " (" + KafkaFailure.spoken(kafka.properties()) + ")" : "")
                + " topics " + topics() + " → target " + UrlMask.mask(target.jdbcUrl())
                + (target.tables().explicit().isEmpty() ? "" : " tables " + target.tables().explicit()) + " batch " + target.batchSize() + "; state " + stateDir;
    }
}
