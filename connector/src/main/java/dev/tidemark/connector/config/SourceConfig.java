package dev.tidemark.connector.config;

import dev.tidemark.event.TableId;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 * @param heartbeatInterval       how often capture writes a heartbeat into the source's WAL when no captured change
 *                                arrived, so the slot's position (and the WAL it retains) moves on while the captured
 *                                tables are idle and others churn; {@link Duration#ZERO} turns heartbeats off
 * @param debezium                settings passed to the Debezium engine as they are ({@code source.debezium}), each one
 *                                allowed by {@link DebeziumPassThrough}; insertion order kept
 */
public record SourceConfig(String jdbcUrl, String user, Secret password, String slot, String publication,
                           List<TableId> tables, boolean setReplicaIdentityFull, Duration pollInterval,
                           List<ColumnId> excludeColumns, Duration heartbeatInterval, Map<String, String> debezium) {
    /** The heartbeat interval when {@code source.heartbeat.interval} is not set. */
    public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(10);

    public SourceConfig {
        tables = List.copyOf(tables);
        excludeColumns = List.copyOf(excludeColumns);
        if (heartbeatInterval == null || heartbeatInterval.isNegative()) {
            throw new IllegalArgumentException("heartbeatInterval must be zero (off) or positive, was " + heartbeatInterval);
        }
        debezium = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(debezium));
    }

    /** A source with the default heartbeat and no Debezium pass-through settings. */
    public SourceConfig(String jdbcUrl, String user, Secret password, String slot, String publication,
                        List<TableId> tables, boolean setReplicaIdentityFull, Duration pollInterval,
                        List<ColumnId> excludeColumns) {
        this(jdbcUrl, user, password, slot, publication, tables, setReplicaIdentityFull, pollInterval, excludeColumns,
                DEFAULT_HEARTBEAT, Map.of());
    }

    /** True when capture writes heartbeats ({@link #heartbeatInterval()} is not zero). */
    public boolean heartbeats() {
        return !heartbeatInterval.isZero();
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

    /** The columns of {@code table} left out of capture (empty when none): what reconcile leaves out of that table too. */
    public java.util.Set<String> excludedColumnsOf(TableId table) {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        excludeColumns.stream().filter(c -> c.table().equals(table)).forEach(c -> out.add(c.column()));
        return java.util.Collections.unmodifiableSet(out);
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
