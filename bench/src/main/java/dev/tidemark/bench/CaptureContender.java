package dev.tidemark.bench;

import java.util.Arrays;
import java.util.List;

/** The contenders of {@code bench/capture.sh}, in the order they run and are printed. */
enum CaptureContender {
    PG_RECVLOGICAL("pg_recvlogical", "pg_recvlogical (pgoutput) → /dev/null: the log's own speed"),
    DEBEZIUM_NOOP("debezium-noop", "Debezium embedded engine, JSON format, no-op consumer"),
    DEBEZIUM_KAFKA("debezium-kafka", "Debezium embedded engine, JSON format → Kafka (send batch, await acks)"),
    TIDEMARK_CAPTURE("tidemark-capture", "tidemark capture → Kafka (DebeziumChangeSource, as `tidemark capture` runs it)"),
    TIDEMARK_RUN_SQLITE("tidemark-run-sqlite", "tidemark run → SQLite end to end (Sidecar: capture + sink in one JVM)"),
    TIDEMARK_RUN_POSTGRES("tidemark-run-postgres", "tidemark run → PostgreSQL 127.0.0.1:5432 end to end (Sidecar)");

    final String id;
    final String label;

    CaptureContender(String id, String label) {
        this.id = id;
        this.label = label;
    }

    static CaptureContender byId(String id) {
        return Arrays.stream(values()).filter(c -> c.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown contender " + id + " (known: " + ids() + ")"));
    }

    static List<String> ids() {
        return Arrays.stream(values()).map(c -> c.id).toList();
    }
}
