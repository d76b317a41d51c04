package dev.tidemark.connector.debezium;

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
 * {@code .tmp} and {@code .discarded-*} siblings). The target's tables and stored offsets are left alone. Every
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
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read slot \"" + source.slot() + "\" and publication \"" + source.publication()
                    + "\" of pipeline " + config.name() + " on the source: " + e.getMessage() + " (check source.url, user and password)", e);
        }
        return new DropPlan.Inventory(source.slot(), slotExists, active, retained, source.publication(), publication,
                withTopics ? existingTopics(config) : List.of(), stateFiles(config));
    }

    /** Removes every item of {@code inventory}; returns one line per item removed. */
    public static List<String> remove(PipelineConfig config, DropPlan.Inventory inventory) {
        List<String> done = new ArrayList<>();
        var source = config.source();
        if (inventory.slotExists() || inventory.publicationExists()) {
            try (Connection c = new SourceSlots(source).connect()) {
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
            } catch (SQLException e) {
                throw new IllegalStateException("cannot connect to the source of pipeline " + config.name() + ": " + e.getMessage(), e);
            }
        }
        if (!inventory.topics().isEmpty()) {
            try (Admin admin = Admin.create(config.kafka().adminProperties())) {
                admin.deleteTopics(inventory.topics()).all().get(KAFKA_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while deleting topics " + inventory.topics(), e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("cannot delete topics " + inventory.topics() + " on " + config.kafka().bootstrapServers()
                        + ": " + (e.getCause() == null ? "no answer within " + KAFKA_WAIT_SECONDS + " s" : e.getCause().getMessage()), e);
            }
            inventory.topics().forEach(t -> done.add("deleted topic " + t));
        }
        for (Path f : inventory.stateFiles()) {
            try {
                Files.deleteIfExists(f);
            } catch (IOException e) {
                throw new IllegalStateException("cannot delete capture offsets file " + f + ": " + e.getMessage(), e);
            }
            done.add("deleted capture offsets file " + f);
        }
        return done;
    }

    private static List<String> existingTopics(PipelineConfig config) {
        try (Admin admin = Admin.create(config.kafka().adminProperties())) {
            Set<String> names = admin.listTopics().names().get(KAFKA_WAIT_SECONDS, TimeUnit.SECONDS);
            return config.topics().stream().filter(names::contains).toList();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading topics " + config.topics(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read topics " + config.topics() + " on " + config.kafka().bootstrapServers()
                    + ": " + (e.getCause() == null ? "no answer within " + KAFKA_WAIT_SECONDS + " s" : e.getCause().getMessage())
                    + " (check kafka.bootstrapServers, or drop without --topics)", e);
        }
    }

    /**
     * {@code <name>.offsets} and its siblings ({@code .delivered}, {@code .tmp}, {@code .discarded-<ms>}, the captured
     * tables {@code .tables} and the running incremental snapshots {@code .incremental}) that exist.
     */
    static List<Path> stateFiles(PipelineConfig config) {
        Path offsets = config.offsetsFile();
        if (!Files.isDirectory(offsets.getParent())) {
            return List.of();
        }
        String base = offsets.getFileName().toString();
        try (Stream<Path> files = Files.list(offsets.getParent())) {
            return files.filter(f -> {
                String n = f.getFileName().toString();
                return n.equals(base) || n.equals(base + ".delivered") || n.equals(base + ".tmp") || n.equals(base + ".delivered.tmp")
                        || n.startsWith(base + ".discarded-") || n.startsWith(base + ".tables") || n.startsWith(base + ".incremental");
            }).sorted().toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list stateDir " + offsets.getParent() + ": " + e.getMessage(), e);
        }
    }
}
