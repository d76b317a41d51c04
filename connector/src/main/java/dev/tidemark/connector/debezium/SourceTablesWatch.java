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
 * Watches the captured tables while capture runs, every {@link #PERIOD}, on a connection of its own. A partition
 * created in a captured partitioned table gets {@code REPLICA IDENTITY FULL} (when {@code source.setReplicaIdentityFull}
 * allows it) like the others; capture stops through {@code stop} with one line on a change that moves rows into or out
 * of a root without row events ({@link PartitionTreeChanges}) and on a captured table or partition whose replica
 * identity is no longer {@code FULL} ({@link IdentityDrift}). A new leaf also gets the truncate trigger
 * ({@link PartitionTruncateTrigger}) where it is installed. Reads the catalog, sets replica identity and adds that
 * trigger; nothing else.
 */
final class SourceTablesWatch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SourceTablesWatch.class);
    static final Duration PERIOD = Duration.ofSeconds(1);

    private final SourceConfig source;
    private final String configLabel;
    private final Consumer<CaptureRefusedException> stop;
    private final Map<TableId, List<PartitionedTables.Member>> known;
    /** The offsets file, beside which the trees are kept ({@link PartitionTreeFile}). */
    private final java.nio.file.Path offsetsFile;
    /** The captured tables that are not partitioned, with their relation OID at start (null: did not exist). */
    private final Map<TableId, Long> plain;
    /** The truncate trigger a new leaf gets ({@link PartitionTruncateTrigger}), empty when it is not installed. */
    private final Optional<PartitionTruncateTrigger.Names> truncateTrigger;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tidemark-source-tables-watch");
        t.setDaemon(true);
        return t;
    });
    private Connection connection;
    private boolean stopped;

    private SourceTablesWatch(SourceConfig source, String configLabel, Consumer<CaptureRefusedException> stop,
                           Map<TableId, List<PartitionedTables.Member>> known, Map<TableId, Long> plain,
                           Optional<PartitionTruncateTrigger.Names> truncateTrigger, java.nio.file.Path offsetsFile) {
        this.source = source;
        this.offsetsFile = offsetsFile;
        this.truncateTrigger = truncateTrigger;
        this.configLabel = configLabel;
        this.stop = stop;
        this.known = known;
        this.plain = plain;
    }

    /**
     * Reads the captured partitioned tables' trees now and watches them and every captured table from then on; a new
     * leaf gets {@code truncateTrigger} when there is one. A tree stored beside {@code offsetsFile} by an earlier run
     * ({@link PartitionTreeFile}) is the one the first check compares with, so a change made while capture was stopped
     * is judged like one made while it runs, unless {@code snapshotSweeps} (this start's snapshot re-reads every table
     * and its sweep removes what left it) or a snapshot of that root was requested after the stored offsets' position
     * (the stop's line was followed). A change capture stopped on is not stored, so each start stops on it again until
     * then.
     */
    static SourceTablesWatch start(SourceConfig source, String configLabel, Consumer<CaptureRefusedException> stop,
                                   Optional<PartitionTruncateTrigger.Names> truncateTrigger, java.nio.file.Path offsetsFile,
                                   boolean snapshotSweeps) {
        Map<TableId, List<PartitionedTables.Member>> trees = new LinkedHashMap<>();
        Map<TableId, Long> plain = new LinkedHashMap<>();
        Map<TableId, List<PartitionedTables.Member>> known;
        try (Connection c = open(source)) {
            for (TableId t : source.tables()) {
                List<PartitionedTables.Member> members = PartitionedTables.membersOf(c, t);
                if (members.isEmpty()) {
                    plain.put(t, relation(c, t).map(Relation::oid).orElse(null));
                } else {
                    trees.put(t, members);
                }
            }
            if (truncateTrigger.isPresent()) { // a partition created since capture's start put the trigger on the others
                PartitionTruncateTrigger.addWhereMissing(c, truncateTrigger.get(), trees.values().stream().flatMap(List::stream)
                        .filter(PartitionedTables.Member::leaf).map(PartitionedTables.Member::table).toList());
            }
            Map<TableId, List<PartitionedTables.Member>> stored = snapshotSweeps ? Map.of() : PartitionTreeFile.read(offsetsFile);
            known = new LinkedHashMap<>(trees);
            known.replaceAll((root, now) -> stored.getOrDefault(root, now));
            followRequestedSnapshots(c, source, configLabel, known, trees, offsetsFile);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the partitions of " + source.tables() + ": " + e.getMessage(), e);
        }
        SourceTablesWatch w = new SourceTablesWatch(source, configLabel, stop, known, plain, truncateTrigger, offsetsFile);
        w.store();
        w.timer.scheduleWithFixedDelay(w::checkQuietly, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        return w;
    }

    /**
     * A stored tree whose change since would stop capture is taken as it is now when a snapshot of its root was
     * requested after the stored offsets' position (the stop's line was followed): that snapshot, read after every
     * change capture has still to stream, makes the target exact.
     */
    private static void followRequestedSnapshots(Connection c, SourceConfig source, String configLabel,
                                                 Map<TableId, List<PartitionedTables.Member>> known,
                                                 Map<TableId, List<PartitionedTables.Member>> trees, java.nio.file.Path offsetsFile)
            throws SQLException {
        if (!(OffsetsFile.read(offsetsFile) instanceof StoredOffsets.Present p) || p.position().isEmpty()
                || !SnapshotSignals.exists(c, source)) {
            return;
        }
        long lsn = p.position().get().value();
        for (Map.Entry<TableId, List<PartitionedTables.Member>> tree : known.entrySet()) {
            List<PartitionedTables.Member> now = trees.get(tree.getKey());
            if (now.equals(tree.getValue())) {
                continue;
            }
            Optional<PartitionTreeChanges.Stop> stop = PartitionTreeChanges.stop(tree.getKey(), tree.getValue(), now,
                    withOldRows(c, PartitionTreeChanges.added(tree.getValue(), now)), configLabel);
            if (stop.isPresent() && stop.get().recoveredBy(SnapshotSignals.requestedAfter(c, source, tree.getKey(), lsn))) {
                log.info("source tables watch: a snapshot of {} was requested after its partitions changed: following the change "
                        + "(the snapshot reads it again)", tree.getKey());
                tree.setValue(now);
            }
        }
    }

    /** The oids of the added leaves that hold rows older than their joining the tree. */
    private static Set<Long> withOldRows(Connection c, List<PartitionedTables.Member> added) throws SQLException {
        Set<Long> out = new HashSet<>();
        for (PartitionedTables.Member m : added) {
            if (m.leaf() && holdsRowsOlderThanItsAttach(c, m)) {
                out.add(m.oid());
            }
        }
        return out;
    }

    private void checkQuietly() {
        try {
            check();
        } catch (SQLException e) {
            // the source is unreachable or busy: capture's own connection reports that; look again next time
            log.debug("source tables watch: {}", e.getMessage());
            closeConnection();
        } catch (RuntimeException e) {
            log.warn("source tables watch: {}", e.getMessage());
        }
    }

    private void check() throws SQLException {
        if (stopped) {
            return;
        }
        if (connection == null || connection.isClosed()) {
            connection = open(source);
        }
        for (Map.Entry<TableId, Long> t : plain.entrySet()) {
            // a table dropped and re-created (another OID) is RelationWatcher's to report, not a drift of its identity
            Optional<Relation> r = relation(connection, t.getKey()).filter(now -> t.getValue() == null || now.oid() == t.getValue());
            if (r.isPresent() && stopOn(IdentityDrift.stop(t.getKey(), r.get().identity(), source.setReplicaIdentityFull(), configLabel))) {
                return;
            }
        }
        for (Map.Entry<TableId, List<PartitionedTables.Member>> tree : known.entrySet()) {
            List<PartitionedTables.Member> now = PartitionedTables.membersOf(connection, tree.getKey());
            List<PartitionedTables.Member> added = PartitionTreeChanges.added(tree.getValue(), now);
            Optional<PartitionTreeChanges.Stop> line = PartitionTreeChanges.stop(tree.getKey(), tree.getValue(), now,
                    withOldRows(connection, added), configLabel);
            if (line.isPresent()) {
                // the stored tree stays as it was: the next start stops again until the snapshot the line names is requested
                stopOn(line.map(PartitionTreeChanges.Stop::line));
                return;
            }
            for (PartitionedTables.Member m : now) {
                boolean isNew = added.contains(m);
                if (m.identity() != 'f' && (!isNew || !source.setReplicaIdentityFull())
                        && stopOn(IdentityDrift.stop(m.table(), m.identity(), source.setReplicaIdentityFull(), configLabel))) {
                    return;
                }
                if (isNew) {
                    setFullIdentity(m);
                    addTruncateTrigger(m);
                }
            }
            if (!now.isEmpty() && !now.equals(tree.getValue())) {
                tree.setValue(now);
                store();
            }
        }
    }

    /** Keeps the trees as known now beside the offsets file; a failure is logged and tried again with the next change. */
    private void store() {
        try {
            PartitionTreeFile.write(offsetsFile, known);
        } catch (java.io.IOException e) {
            log.warn("source tables watch: cannot write {}: {}", PartitionTreeFile.fileFor(offsetsFile), e.getMessage());
        }
    }

    /** Stops capture with {@code line} when there is one; returns whether it did. */
    private boolean stopOn(Optional<String> line) {
        if (line.isEmpty()) {
            return false;
        }
        stopped = true;
        stop.accept(new CaptureRefusedException(line.get()));
        return true;
    }

    /** A table's relation OID and replica identity ({@code relreplident}). */
    record Relation(long oid, char identity) {
    }

    /** {@code t}'s relation, or empty when it does not exist (not this watch's to judge). */
    static Optional<Relation> relation(Connection c, TableId t) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT c.oid, c.relreplident FROM pg_class c JOIN pg_namespace n ON "
                + "n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?")) {
            ps.setString(1, t.schema());
            ps.setString(2, t.table());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Relation(rs.getLong(1), rs.getString(2).charAt(0))) : Optional.empty();
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

    private void addTruncateTrigger(PartitionedTables.Member m) throws SQLException {
        if (m.leaf() && truncateTrigger.isPresent()) {
            PartitionTruncateTrigger.addTo(connection, truncateTrigger.get(), m.table());
            log.info("put truncate trigger \"{}\" on new partition {} so a TRUNCATE of it reaches capture", truncateTrigger.get().trigger(), m.table());
        }
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
        p.setProperty("ApplicationName", "tidemark-source-tables-watch");
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
            log.debug("source tables watch: closing its connection: {}", e.getMessage());
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
