package dev.tidemark.connector.config;

import dev.tidemark.sink.jdbc.TargetTableNames;

/**
 * The JDBC target the sink writer applies to.
 *
 * @param jdbcUrl        target URL ({@code jdbc:sqlite:/path/file.db}, …)
 * @param batchSize      most events per target transaction
 * @param positionColumn metadata column holding each row's source position
 * @param applyTruncate  apply truncate events (else they stop the sink with an error)
 * @param softDeletes    keep deleted keys with {@code __tidemark_deleted = true} instead of removing them
 * @param deadLetterTopic Kafka topic for poison events (null: a poison event stops the sink, naming it)
 * @param tables         the target table of each captured table ({@code target.tables}; default: its name without schema)
 */
public record TargetConfig(String jdbcUrl, String user, Secret password, int batchSize, String positionColumn,
                           boolean applyTruncate, boolean softDeletes, String deadLetterTopic, TargetTableNames tables) {
    public TargetConfig {
        tables = tables == null ? TargetTableNames.DEFAULT : tables;
    }

    public TargetConfig(String jdbcUrl, String user, Secret password, int batchSize, String positionColumn, boolean applyTruncate,
                        boolean softDeletes, String deadLetterTopic) {
        this(jdbcUrl, user, password, batchSize, positionColumn, applyTruncate, softDeletes, deadLetterTopic, TargetTableNames.DEFAULT);
    }

    public TargetConfig(String jdbcUrl, String user, Secret password, int batchSize, String positionColumn, boolean applyTruncate,
                        boolean softDeletes) {
        this(jdbcUrl, user, password, batchSize, positionColumn, applyTruncate, softDeletes, null);
    }

    public TargetConfig(String jdbcUrl, String user, Secret password, int batchSize, String positionColumn, boolean applyTruncate) {
        this(jdbcUrl, user, password, batchSize, positionColumn, applyTruncate, false);
    }
}
