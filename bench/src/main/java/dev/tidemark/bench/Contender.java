package dev.tidemark.bench;

import java.util.List;
import java.util.Optional;

/** The contenders of the sink benchmark, in the order they run. */
enum Contender {
    TIDEMARK_SQLITE("tidemark-sqlite", "Tidemark sink (KafkaSinkRunner + JdbcChangeSink) → SQLite", Target.SQLITE),
    RAW_SQLITE("raw-sqlite", "raw JDBC loop → SQLite (readTree, collapse, addBatch upsert/delete, 1 tx/batch)", Target.SQLITE),
    TIDEMARK_POSTGRES("tidemark-postgres", "Tidemark sink (KafkaSinkRunner + JdbcChangeSink) → PostgreSQL", Target.POSTGRES),
    RAW_PG_ROWS("raw-pg-rows", "raw JDBC loop → PostgreSQL, per-row ON CONFLICT upsert + DELETE, addBatch", Target.POSTGRES),
    RAW_PG_UNNEST("raw-pg-unnest", "raw JDBC loop → PostgreSQL, UNNEST upsert + DELETE … = ANY(?)", Target.POSTGRES),
    DEBEZIUM_JDBC_POSTGRES("debezium-jdbc-postgres", "Debezium JDBC sink task 3.5.0 (own class path) at its best: this run's batch, use.reduction.buffer=true (Connect records, JsonConverter, upsert + delete) → PostgreSQL", Target.POSTGRES),
    DEBEZIUM_JDBC_POSTGRES_DEFAULT("debezium-jdbc-postgres-500", "Debezium JDBC sink task 3.5.0 (own class path) at its defaults (batch.size 500, max.poll.records 500) → PostgreSQL", Target.POSTGRES),
    KAFKA_ONLY("kafka-only", "breakdown: poll every record, decode nothing, write nothing", Target.NONE),
    DECODE_RAW("decode-raw", "breakdown: poll + the raw loops' decode (readTree + 6 fields) + collapse, no writes", Target.NONE),
    DECODE_TIDEMARK("decode-tidemark", "breakdown: poll + Tidemark's EnvelopeDecoder + BatchPlan, no writes", Target.NONE),
    STAGES_TIDEMARK_SQLITE("stages-tidemark-sqlite", "breakdown: the sink loop by hand, decode and apply timed apart → SQLite", Target.SQLITE),
    STAGES_TIDEMARK_POSTGRES("stages-tidemark-postgres", "breakdown: the sink loop by hand, decode and apply timed apart → PostgreSQL", Target.POSTGRES);

    enum Target { SQLITE, POSTGRES, NONE }

    final String id;
    final String description;
    final Target target;

    Contender(String id, String description, Target target) {
        this.id = id;
        this.description = description;
        this.target = target;
    }

    /** Debezium's JDBC sink: its child JVM runs on a class path of its own ({@link DebeziumClassPath}). */
    boolean ownClassPath() {
        return this == DEBEZIUM_JDBC_POSTGRES || this == DEBEZIUM_JDBC_POSTGRES_DEFAULT;
    }

    static Optional<Contender> byId(String id) {
        for (Contender c : values()) {
            if (c.id.equals(id)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    static List<String> ids() {
        return java.util.Arrays.stream(values()).map(c -> c.id).toList();
    }
}
