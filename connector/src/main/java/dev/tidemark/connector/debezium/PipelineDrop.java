package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.KafkaFailure;
import dev.tidemark.connector.config.KafkaAdmins;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.jdbc.Databases;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;

/**
 * The I/O of {@code tidemark drop}: reads what is left of a pipeline ({@link #inspect}) and removes it
 * ({@link #remove}) — the replication slot first (so the source stops retaining WAL), then the publication, the
 * topics when asked, and capture's offsets files in stateDir ({@code <name>.offsets} and its {@code .delivered},
 * {@code .tmp} and {@code .discarded-*} siblings) and Tidemark's other files there; the replica identities Tidemark
 * set to FULL are restored ({@link ReplicaIdentities}); the pipeline's signal table ({@link SnapshotSignals}) and
 * schema-change trigger ({@link DdlTrigger}) are dropped; with the topics, its records in the shared history topic
 * ({@link HistoryCleanup}) and its stored offsets and table positions in the target ({@link DropTarget}). The target's data rows are left alone. Every
 * failure is an {@link IllegalStateException} with one line naming the object and what to check.
 */
public final class PipelineDrop {
    private static final long KAFKA_WAIT_SECONDS = 30;

    private PipelineDrop() {
    }

    /** What is left of {@code config}'s pipeline; Kafka is contacted only when {@code withTopics}. */
    public static DropPlan.Inventory inspect(PipelineConfig config, boolean withTopics) {
        var source = config.source();
        boolean slotExists = false;
        boolean active = false;
        long retained = -1;
        boolean publication;
        List<ReplicaIdentities.Replaced> identities;
        java.util.Optional<String> signalTable;
        List<String> ddlTrigger;
        try (Connection c = new SourceSlots(source).connect()) {
            try (PreparedStatement ps = c.prepareStatement("SELECT active, pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint "
                    + "FROM pg_replication_slots WHERE slot_name = ? AND database = current_database()")) {
                ps.setString(1, source.slot());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        slotExists = true;
                        active = rs.getBoolean(1);
                        retained = rs.getObject(2) == null ? -1 : rs.getLong(2);
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_publication WHERE pubname = ?")) {
                ps.setString(1, source.publication());
                try (ResultSet rs = ps.executeQuery()) {
                    publication = rs.next();
                }
            }
            identities = stillFull(c, ReplicaIdentities.readRecord(ReplicaIdentities.fileFor(config)));
            signalTable = SnapshotSignals.exists(c, source) ? java.util.Optional.of(SnapshotSignals.label(source)) : java.util.Optional.empty();
            ddlTrigger = DdlTrigger.present(c, config);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read slot \"" + source.slot() + "\" and publication \"" + source.publication()
                    + "\" of pipeline " + config.name() + " on the source: " + e.getMessage() + " (check source.url, user and password)", e);
        }
        return new DropPlan.Inventory(source.slot(), slotExists, active, retained, source.publication(), publication,
                withTopics ? existingTopics(config) : List.of(), stateFiles(config), identities,
                withTopics ? DropTarget.inspect(config) : DropPlan.TargetLeftovers.NONE,
                new DropPlan.CaptureObjects(signalTable, ddlTrigger, withTopics ? HistoryDrop.inspect(config) : HistoryCleanup.NOTHING));
    }

    /** The recorded tables that still have the FULL identity Tidemark set (the others were changed since: left alone). */
    private static List<ReplicaIdentities.Replaced> stillFull(Connection c, List<ReplicaIdentities.Replaced> recorded) throws SQLException {
        List<ReplicaIdentities.Replaced> out = new ArrayList<>();
        for (ReplicaIdentities.Replaced r : recorded) {
            if (ReplicaIdentities.current(c, r.id()).map("f"::equals).orElse(false)) {
                out.add(r);
            }
        }
        return out;
    }

    /** Drops the pipeline's schema-change event triggers ({@link DdlTrigger}) when present; the line saying so, or empty. */
    private static java.util.Optional<String> dropDdlTrigger(PipelineConfig config, List<String> items) {
        try (Connection c = new SourceSlots(config.source()).connect()) {
            if (!DdlTrigger.drop(c, config)) {
                return java.util.Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop the schema-change event triggers of pipeline " + config.name() + ": "
                    + e.getMessage() + " (dropping an event trigger needs a superuser as source.user)", e);
        }
        return java.util.Optional.of("dropped the schema-change trigger: " + String.join(", ", items));
    }

    /** Drops the pipeline's signal table ({@link SnapshotSignals}); the line saying so. */
    private static String dropSignalTable(PipelineConfig config, String label) {
        try (Connection c = new SourceSlots(config.source()).connect()) {
            SnapshotSignals.drop(c, config.source());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop signal table " + label + " of pipeline " + config.name() + ": " + e.getMessage()
                    + " (it needs the owner of the table or a superuser as source.user)", e);
        }
        return "dropped signal table " + label;
    }

    /** Removes every item of {@code inventory}; returns one line per item removed. */
    public static List<String> remove(PipelineConfig config, DropPlan.Inventory inventory) {
        List<String> done = new ArrayList<>();
        if (inventory.slotExists() || inventory.publicationExists() || !inventory.identities().isEmpty()) {
            try (Connection c = new SourceSlots(config.source()).connect()) {
                done.addAll(removeFromSource(c, config, inventory));
            } catch (SQLException e) {
                throw new IllegalStateException("cannot connect to the source of pipeline " + config.name() + ": " + e.getMessage(), e);
            }
        }
        if (!inventory.objects().ddlTrigger().isEmpty()) {
            dropDdlTrigger(config, inventory.objects().ddlTrigger()).ifPresent(done::add);
        }
        inventory.objects().signalTable().ifPresent(t -> done.add(dropSignalTable(config, t)));
        if (!inventory.topics().isEmpty()) {
            deleteTopics(config, inventory.topics());
            inventory.topics().forEach(t -> done.add("deleted topic " + t));
        }
        done.addAll(HistoryDrop.remove(config, inventory.objects().history()));
        done.addAll(DropTarget.clear(config, inventory.target()));
        done.addAll(deleteStateFiles(inventory.stateFiles()));
        return done;
    }

    /** The slot first (so the source stops retaining WAL), then the publication, then the replaced replica identities. */
    private static List<String> removeFromSource(Connection c, PipelineConfig config, DropPlan.Inventory inventory) {
        List<String> done = new ArrayList<>();
        var source = config.source();
        if (inventory.slotExists()) {
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots "
                    + "WHERE slot_name = ? AND database = current_database()")) {
                ps.setString(1, source.slot());
                ps.execute();
            } catch (SQLException e) {
                throw new IllegalStateException("cannot drop replication slot \"" + source.slot() + "\": " + e.getMessage()
                        + " (if capture started again meanwhile, stop it and run tidemark drop again)", e);
            }
            done.add("dropped replication slot \"" + source.slot() + "\"");
        }
        if (inventory.publicationExists()) {
            try (Statement s = c.createStatement()) {
                s.execute("DROP PUBLICATION IF EXISTS " + Databases.forUrl(source.jdbcUrl()).quote(source.publication()));
            } catch (SQLException e) {
                throw new IllegalStateException("cannot drop publication \"" + source.publication() + "\": " + e.getMessage()
                        + " (it needs the owner of the publication or a superuser as source.user)", e);
            }
            done.add("dropped publication \"" + source.publication() + "\"");
        }
        try {
            done.addAll(ReplicaIdentities.restore(c, inventory.identities()));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot restore the replica identity Tidemark replaced: " + e.getMessage()
                    + " (it needs the owner of the table as source.user; the record stays in "
                    + ReplicaIdentities.fileFor(config) + " for the next tidemark drop)", e);
        }
        return done;
    }

    private static void deleteTopics(PipelineConfig config, List<String> topics) {
        try (Admin admin = KafkaAdmins.create(config.kafka())) {
            admin.deleteTopics(topics).all().get(KAFKA_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while deleting topics " + topics, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot delete topics " + topics + " on " + config.kafka().bootstrapServers()
                    + ": " + (e.getCause() == null ? "no answer within " + KAFKA_WAIT_SECONDS + " s" : KafkaFailure.reason(config.kafka(), e.getCause())), e);
        }
    }

    /** Deletes each state file but a lock a running process holds (left, with a line saying so). */
    private static List<String> deleteStateFiles(List<Path> files) {
        List<String> done = new ArrayList<>();
        for (Path f : files) {
            if (f.getFileName().toString().endsWith(".lock") && !MemberLocks.free(f)) {
                done.add("left " + f + ": a running " + (f.getFileName().toString().endsWith(".capture.lock") ? "capture" : "sink")
                        + " holds it (stop it, then run tidemark drop again)");
                continue;
            }
            try {
                Files.deleteIfExists(f);
            } catch (IOException e) {
                throw new IllegalStateException("cannot delete " + DropPlan.label(f) + " " + f + ": " + e.getMessage(), e);
            }
            done.add("deleted " + DropPlan.label(f) + " " + f);
        }
        return done;
    }

    private static List<String> existingTopics(PipelineConfig config) {
        try (Admin admin = KafkaAdmins.create(config.kafka())) {
            Set<String> names = admin.listTopics().names().get(KAFKA_WAIT_SECONDS, TimeUnit.SECONDS);
            return config.topics().stream().filter(names::contains).toList();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading topics " + config.topics(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read topics " + config.topics() + " on " + config.kafka().bootstrapServers()
                    + ": " + (e.getCause() == null ? "no answer within " + KAFKA_WAIT_SECONDS + " s" : KafkaFailure.reason(config.kafka(), e.getCause()))
                    + " (check kafka.bootstrapServers, or drop without --topics)", e);
        }
    }

    /**
     * {@code <name>.offsets} and its siblings ({@code .delivered}, {@code .tmp}, {@code .discarded-<ms>}, the captured
     * tables {@code .tables}, the running incremental snapshots {@code .incremental}, a stop's {@code .no-first-position}
     * ({@link FirstPositionNote})), and the other files Tidemark
     * keeps for the pipeline in stateDir ({@code <name>.gaps}, {@code <name>.replica-identity},
     * {@code <name>.last-reconcile.json}, the owner record {@code <name>.owner}, the capture lock
     * {@code <name>.capture.lock}, {@code <name>.sink-member-<n>.lock}) that exist.
     */
    static List<Path> stateFiles(PipelineConfig config) {
        Path offsets = config.offsetsFile();
        if (!Files.isDirectory(offsets.getParent())) {
            return List.of();
        }
        String base = offsets.getFileName().toString();
        String name = config.name();
        try (Stream<Path> files = Files.list(offsets.getParent())) {
            return files.filter(f -> {
                String n = f.getFileName().toString();
                return n.equals(base) || n.equals(base + ".delivered") || n.equals(base + ".tmp") || n.equals(base + ".delivered.tmp")
                        || n.startsWith(base + ".discarded-") || n.equals(name + ".gaps") || n.equals(name + ".gaps.tmp")
                        || n.equals(name + ".replica-identity") || n.equals(name + ".replica-identity.tmp")
                        || n.equals(name + ".last-reconcile.json") || n.equals(name + ".owner") || n.equals(name + ".owner.tmp")
                        || n.equals(name + ".capture.lock") || n.matches(java.util.regex.Pattern.quote(name) + "\\.sink-member-\\d+\\.lock")
                        || n.startsWith(base + ".tables") || n.startsWith(base + ".partitions") || n.startsWith(base + ".incremental") || n.equals(base + ".no-first-position");
            }).sorted().toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list stateDir " + offsets.getParent() + ": " + e.getMessage(), e);
        }
    }
}
