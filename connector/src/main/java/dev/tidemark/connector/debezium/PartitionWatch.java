package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.JdbcEndpoints;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the trees of the captured partitioned tables while capture runs, every {@link #PERIOD}, on a connection
 * of its own: a partition created since gets {@code REPLICA IDENTITY FULL} (when {@code source.setReplicaIdentityFull}
 * allows it) so its updates and deletes carry before-images like the others; a change that moves rows into or out of
 * a root without row events ({@link PartitionTreeChanges}) stops capture through {@code stop} with its one line.
 * Reads the catalog and sets replica identity; nothing else.
 */
final class PartitionWatch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PartitionWatch.class);
    static final Duration PERIOD = Duration.ofSeconds(1);

    private final SourceConfig source;
    private final String configLabel;
    private final Consumer<CaptureRefusedException> stop;
    private final Map<TableId, List<PartitionedTables.Member>> known;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tidemark-partition-watch");
        t.setDaemon(true);
        return t;
    });
    private Connection connection;
    private boolean stopped;

    private PartitionWatch(SourceConfig source, String configLabel, Consumer<CaptureRefusedException> stop,
                           Map<TableId, List<PartitionedTables.Member>> known) {
        this.source = source;
        this.configLabel = configLabel;
        this.stop = stop;
        this.known = known;
    }

    /**
     * Reads the captured partitioned tables' trees now and watches them from then on; empty (nothing watched) when
     * no captured table is partitioned.
     */
    static Optional<PartitionWatch> start(SourceConfig source, String configLabel, Consumer<CaptureRefusedException> stop) {
        Map<TableId, List<PartitionedTables.Member>> trees = new LinkedHashMap<>();
        try (Connection c = open(source)) {
            for (TableId t : source.tables()) {
                List<PartitionedTables.Member> members = PartitionedTables.membersOf(c, t);
                if (!members.isEmpty()) {
                    trees.put(t, members);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the partitions of " + source.tables() + ": " + e.getMessage(), e);
        }
        if (trees.isEmpty()) {
            return Optional.empty();
        }
        PartitionWatch w = new PartitionWatch(source, configLabel, stop, trees);
        w.timer.scheduleWithFixedDelay(w::checkQuietly, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        return Optional.of(w);
    }

    private void checkQuietly() {
        try {
            check();
        } catch (SQLException e) {
            // the source is unreachable or busy: capture's own connection reports that; look again next time
            log.debug("partition watch: {}", e.getMessage());
            closeConnection();
        } catch (RuntimeException e) {
            log.warn("partition watch: {}", e.getMessage());
        }
    }

    private void check() throws SQLException {
        if (stopped) {
            return;
        }
        if (connection == null || connection.isClosed()) {
            connection = open(source);
        }
        for (Map.Entry<TableId, List<PartitionedTables.Member>> tree : known.entrySet()) {
            List<PartitionedTables.Member> now = PartitionedTables.membersOf(connection, tree.getKey());
            List<PartitionedTables.Member> added = PartitionTreeChanges.added(tree.getValue(), now);
            Set<Long> withOldRows = new HashSet<>();
            for (PartitionedTables.Member m : added) {
                if (m.leaf() && holdsRowsOlderThanItsAttach(connection, m)) {
                    withOldRows.add(m.oid());
                }
            }
            Optional<String> line = PartitionTreeChanges.stop(tree.getKey(), tree.getValue(), now, withOldRows, configLabel);
            if (line.isPresent()) {
                stopped = true;
                stop.accept(new CaptureRefusedException(line.get()));
                return;
            }
            for (PartitionedTables.Member m : added) {
                setFullIdentity(m);
            }
            if (!now.isEmpty()) {
                tree.setValue(now);
            }
        }
    }

    private void setFullIdentity(PartitionedTables.Member m) throws SQLException {
        if (m.identity() == 'f' || !source.setReplicaIdentityFull()) {
            return;
        }
        try (Statement s = connection.createStatement()) {
            s.execute("ALTER TABLE " + SourcePreflight.quote(m.table().schema()) + "." + SourcePreflight.quote(m.table().table())
                    + " REPLICA IDENTITY FULL");
        }
        log.info("set REPLICA IDENTITY FULL on new partition {} so updates and deletes carry before-images", m.table());
    }

    /**
     * Whether leaf {@code m} holds a row written before it (or a partitioned table above it) joined the tree: such a
     * row was never published. Compares transaction ages ({@code age(xmin)}) of the rows and of the newest {@code
     * pg_inherits} entry on the way to the root, in one statement; a row written in the very transaction that
     * attached it counts as older (it may have been written before the attach).
     */
    static boolean holdsRowsOlderThanItsAttach(Connection c, PartitionedTables.Member m) throws SQLException {
        String sql = "SELECT EXISTS (SELECT 1 FROM ONLY " + SourcePreflight.quote(m.table().schema()) + "."
                + SourcePreflight.quote(m.table().table()) + " r WHERE age(r.xmin) >= (SELECT min(age(i.xmin)) "
                + "FROM pg_partition_ancestors(CAST(? AS oid)::regclass) a JOIN pg_inherits i ON i.inhrelid = a.relid::oid))";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, m.oid());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private static Connection open(SourceConfig source) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", source.user());
        if (!source.password().isEmpty()) {
            p.setProperty("password", source.password().reveal());
        }
        p.setProperty("ApplicationName", "tidemark-partition-watch");
        Connection c = JdbcEndpoints.open(JdbcEndpoints.Side.SOURCE, source.jdbcUrl(), p);
        try (Statement s = c.createStatement()) {
            s.execute("SET lock_timeout = '2s'"); // setting replica identity waits for no long lock: next time instead
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    private void closeConnection() {
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException e) {
            log.debug("partition watch: closing its connection: {}", e.getMessage());
        }
        connection = null;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeConnection();
    }
}
