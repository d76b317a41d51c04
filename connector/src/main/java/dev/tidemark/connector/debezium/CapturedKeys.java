package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every row change of a captured table keyed although Debezium found no primary key for it ({@link KeyRestore}:
 * it looks the key up by the table's name, which a rename or drop committed meanwhile has taken out of the catalog).
 * The key is read from the catalog by the table's <em>relation</em> (OID), which a rename keeps: for a relation that
 * still exists, its primary key now (none: the change is sent as Debezium made it and the sink refuses it, as for any
 * table without a primary key); for a relation that is gone, the key it had at capture's start. Read once per table
 * description Debezium made (its value schema). A keyless tombstone takes the key of the delete it follows.
 * Not thread-safe: capture's consumer thread owns it.
 */
final class CapturedKeys {
    private static final Logger log = LoggerFactory.getLogger(CapturedKeys.class);

    private final PipelineConfig config;
    private final String configLabel;
    private final SourceSlots slots;
    private final Map<String, TableId> tableOfTopic = new HashMap<>();
    private final Map<TableId, Long> relations;
    private final Map<TableId, List<String>> keysAtStart;
    /** Per value schema Debezium made: how its keyless rows are keyed. */
    private final Map<Schema, Keying> keyings = new IdentityHashMap<>();
    /** Per topic: the key restored on the delete just sent, for the tombstone that follows it. */
    private final Map<String, Struct> deleted = new HashMap<>();

    private CapturedKeys(PipelineConfig config, String configLabel, SourceSlots slots, Map<TableId, Long> relations,
                         Map<TableId, List<String>> keysAtStart) {
        this.config = config;
        this.configLabel = configLabel;
        this.slots = slots;
        this.relations = Map.copyOf(relations);
        this.keysAtStart = Map.copyOf(keysAtStart);
        config.source().tables().forEach(t -> tableOfTopic.put(config.topicFor(t), t));
    }

    /** Reads the primary keys of the captured tables' {@code relations} (table → OID, at capture's start). */
    static CapturedKeys start(PipelineConfig config, String configLabel, SourceSlots slots, Map<TableId, Long> relations) {
        Map<TableId, List<String>> keys = new LinkedHashMap<>();
        try (Connection c = slots.connect()) {
            for (Map.Entry<TableId, Long> r : relations.entrySet()) {
                keys.put(r.getKey(), primaryKey(c, r.getValue()).orElse(List.of()));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("capture " + config.name() + ": cannot read the primary keys of " + relations.keySet()
                    + " on the source: " + e.getMessage(), e);
        }
        return new CapturedKeys(config, configLabel, slots, relations, keys);
    }

    /** What to send for {@code r}: itself, unless it is a keyless row change or tombstone of a captured table. */
    KeyRestore.Outcome restore(SourceRecord r) {
        TableId table = tableOfTopic.get(r.topic());
        if (table == null || r.key() != null) {
            return new KeyRestore.Send(List.of(r));
        }
        if (r.value() == null) { // the tombstone Debezium sends after a keyless delete
            Struct key = deleted.remove(r.topic());
            return new KeyRestore.Send(key == null ? List.of()
                    : List.of(r.newRecord(r.topic(), r.kafkaPartition(), key.schema(), key, null, null, r.timestamp(), r.headers())));
        }
        if (!KeyRestore.isKeylessRowChange(r)) {
            return new KeyRestore.Send(List.of(r));
        }
        Keying keying = keyings.computeIfAbsent(r.valueSchema(), s -> keying(table, s));
        if (!keying.restore()) {
            return new KeyRestore.Send(List.of(r));
        }
        KeyRestore.Outcome out = KeyRestore.restore(r, table, keying.keySchema(), configLabel);
        if (out instanceof KeyRestore.Send s && "d".equals(((Struct) r.value()).getString("op"))) {
            deleted.put(r.topic(), (Struct) s.records().get(0).key());
        }
        return out;
    }

    /**
     * How keyless rows of one table description are keyed: not at all ({@code restore} false: the table has no primary
     * key now), or by {@code keySchema} (null when the row lacks a key column: {@link KeyRestore.Stop}).
     */
    private record Keying(boolean restore, Schema keySchema) {
    }

    /** The keying of rows of {@code envelope}, a description of {@code table}, from the catalog by its relation. */
    private Keying keying(TableId table, Schema envelope) {
        Long oid = relations.get(table);
        Optional<List<String>> now;
        try (Connection c = slots.connect()) {
            now = oid != null && exists(c, oid) ? Optional.of(primaryKey(c, oid).orElse(List.of())) : Optional.empty();
        } catch (SQLException e) {
            throw new IllegalStateException("capture " + config.name() + ": cannot read the primary key of " + table + " (relation "
                    + oid + ") on the source: " + e.getMessage(), e);
        }
        List<String> key = now.orElse(keysAtStart.getOrDefault(table, List.of()));
        if (key.isEmpty()) {
            return new Keying(false, null);
        }
        log.info("capture {}: Debezium found no primary key for {} (the name was no longer in the source's catalog when it decoded "
                + "the table: renamed or dropped since); its changes are keyed by the primary key {} of {}", config.name(), table,
                key, now.isPresent() ? "its relation " + oid : "the table at capture's start (its relation " + oid + " is gone)");
        return new Keying(true, KeyRestore.keySchema(envelope, key));
    }

    private static boolean exists(Connection c, long oid) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_catalog.pg_class WHERE oid = ?")) {
            ps.setLong(1, oid);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** The primary key columns of relation {@code oid} in key order, empty when it has no primary key. */
    static Optional<List<String>> primaryKey(Connection c, long oid) throws SQLException {
        // indkey holds the key's attribute numbers in key order: unnest … WITH ORDINALITY keeps that order
        try (PreparedStatement ps = c.prepareStatement("SELECT a.attname FROM pg_catalog.pg_index i "
                + "CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY k(attnum, ord) "
                + "JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum "
                + "WHERE i.indrelid = ? AND i.indisprimary ORDER BY k.ord")) {
            ps.setLong(1, oid);
            List<String> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(out));
        }
    }
}
