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
 * @param excludeColumns          columns of captured tables left out of capture, {@code schema.table.column}: they
 *                                never reach Kafka or the target (for a type Tidemark cannot carry exactly, or data
 *                                the target must not hold); never a primary-key column
 */
public record SourceConfig(String jdbcUrl, String user, Secret password, String slot, String publication,
                           List<TableId> tables, boolean setReplicaIdentityFull, Duration pollInterval,
                           List<ColumnId> excludeColumns) {
    public SourceConfig {
        tables = List.copyOf(tables);
        excludeColumns = List.copyOf(excludeColumns);
    }

    /** A source that captures every column of its tables. */
    public SourceConfig(String jdbcUrl, String user, Secret password, String slot, String publication,
                        List<TableId> tables, boolean setReplicaIdentityFull, Duration pollInterval) {
        this(jdbcUrl, user, password, slot, publication, tables, setReplicaIdentityFull, pollInterval, List.of());
    }

    /** True when {@code column} of {@code table} is left out of capture. */
    public boolean excludes(TableId table, String column) {
        return excludeColumns.contains(new ColumnId(table, column));
    }

    /** A column of a captured table, written {@code schema.table.column}. */
    public record ColumnId(TableId table, String column) {
        @Override
        public String toString() {
            return table + "." + column;
        }
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
