package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * How capture's publication must be made so that a partitioned table arrives as its root: pgoutput then publishes
 * each change to a partition under the name of the published root ({@code publish_via_partition_root = true}),
 * which is the one table Debezium is told to capture. With the PostgreSQL default ({@code false}) the changes arrive
 * under the partitions' names, which Debezium filters out without a word: the snapshot reads the root, nothing after
 * it arrives.
 *
 * <p>Debezium creates the publication when it is absent ({@code publication.autocreate.mode=filtered}) with the
 * option set ({@link #configure}). It never changes the option of a publication that exists, so a publication
 * created without it is refused at start ({@link #refusal}, pure) naming the command that fixes it.
 */
final class PublicationSpec {
    /** Debezium's setting that adds {@code publish_via_partition_root = true} when it creates the publication. */
    static final String VIA_ROOT = "publish.via.partition.root";

    private PublicationSpec() {
    }

    /** Adds the engine settings for how the publication is created. */
    static void configure(Properties engine) {
        engine.setProperty(VIA_ROOT, "true");
    }

    /** Whether publication {@code name} publishes via the partition root, or empty when it does not exist. */
    static Optional<Boolean> viaRoot(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pubviaroot FROM pg_publication WHERE pubname = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getBoolean(1)) : Optional.empty();
            }
        }
    }

    /**
     * The one line refusing an existing publication that publishes partitions under their own names while
     * {@code partitioned} (captured partitioned tables) is not empty; empty when capture can start.
     */
    static Optional<String> refusal(String publication, Optional<Boolean> viaRoot, List<TableId> partitioned) {
        if (partitioned.isEmpty() || viaRoot.isEmpty() || viaRoot.get()) {
            return Optional.empty();
        }
        return Optional.of("publication \"" + publication + "\" publishes the partitions of " + partitioned.get(0)
                + " under their own names (publish_via_partition_root = false), so capture would miss every change to them: run "
                + "ALTER PUBLICATION " + SourcePreflight.quote(publication) + " SET (publish_via_partition_root = true), "
                + "then start again with --resnapshot (changes made to them before were not captured)");
    }
}
