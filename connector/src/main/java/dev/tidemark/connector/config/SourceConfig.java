package dev.tidemark.connector.config;

import dev.tidemark.event.TableId;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * The PostgreSQL source of a CDC pipeline.
 *
 * @param jdbcUrl                 {@code jdbc:postgresql://host:port/database}
 * @param slot                    logical replication slot (created by Debezium if absent)
 * @param publication             pgoutput publication (created for the listed tables if absent)
 * @param tables                  captured tables, {@code schema.table}
 * @param setReplicaIdentityFull  set {@code REPLICA IDENTITY FULL} on captured tables that lack it (else fail)
 * @param pollInterval            how often the engine hands records over (Debezium's default 500 ms adds latency)
 */
public record SourceConfig(String jdbcUrl, String user, Secret password, String slot, String publication,
                           List<TableId> tables, boolean setReplicaIdentityFull, Duration pollInterval) {
    public SourceConfig {
        tables = List.copyOf(tables);
    }

    public String host() {
        return uri().getHost();
    }

    public int port() {
        int p = uri().getPort();
        return p < 0 ? 5432 : p;
    }

    public String database() {
        String path = uri().getPath();
        return path == null || path.length() <= 1 ? "postgres" : path.substring(1);
    }

    private URI uri() {
        String s = jdbcUrl.substring("jdbc:".length());
        int q = s.indexOf('?');
        return URI.create(q < 0 ? s : s.substring(0, q));
    }
}
