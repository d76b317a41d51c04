package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Identifiers;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The signal table through which a table is snapshotted again while the pipeline streams (Debezium's incremental
 * snapshot). Tidemark creates and owns one table per pipeline on the source, {@code public."tidemark_signal_<slot>"}
 * (columns {@code id}, {@code type}, {@code data}), adds it to the pipeline's publication, and tells the engine to read
 * signals from it ({@code signal.data.collection}, channel {@code source}). The engine also writes its open and close
 * watermarks of every snapshot chunk there (PostgreSQL's incremental snapshot needs them in the WAL; strategy
 * {@code insert_delete}, so the table stays small). Its rows never reach Kafka or the target.
 *
 * <p>{@link #request} inserts an {@code execute-snapshot} signal: a running capture reads it from the WAL and
 * snapshots the tables chunk by chunk while every table keeps streaming; a stopped one does so once it resumes.
 */
public final class SnapshotSignals {
    private static final Logger log = LoggerFactory.getLogger(SnapshotSignals.class);
    /** Rows per snapshot chunk unless {@code source.debezium} sets {@code incremental.snapshot.chunk.size}. */
    static final String CHUNK_SIZE = "1024";

    private SnapshotSignals() {
    }

    /** The pipeline's signal table: {@code public.tidemark_signal_<slot>}. */
    public static TableId table(SourceConfig source) {
        return new TableId("public", "tidemark_signal_" + source.slot());
    }

    /** Adds the engine settings for the signal table and incremental snapshots. */
    static void configure(SourceConfig source, Properties engine) {
        TableId t = table(source);
        engine.setProperty("signal.data.collection", t.schema() + "." + t.table());
        engine.setProperty("signal.enabled.channels", "source");
        engine.setProperty("incremental.snapshot.watermarking.strategy", "insert_delete");
        engine.putIfAbsent("incremental.snapshot.chunk.size", CHUNK_SIZE);
    }

    /**
     * Creates the signal table if absent and adds it to the pipeline's publication when that exists without it
     * (the engine adds it when it creates or updates the publication, but a signal written before would be lost).
     */
    static void ensure(Connection c, SourceConfig source) throws SQLException {
        String t = quoted(table(source));
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + t + " (id varchar(64) PRIMARY KEY, type varchar(64) NOT NULL, data varchar(4096))");
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT p.puballtables, EXISTS (SELECT 1 FROM pg_publication_tables pt "
                + "WHERE pt.pubname = p.pubname AND pt.schemaname = ? AND pt.tablename = ?) FROM pg_publication p WHERE p.pubname = ?")) {
            ps.setString(1, table(source).schema());
            ps.setString(2, table(source).table());
            ps.setString(3, source.publication());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getBoolean(1) || rs.getBoolean(2)) {
                    return;
                }
            }
        }
        try (Statement s = c.createStatement()) {
            s.execute("ALTER PUBLICATION " + Identifiers.doubleQuoted(source.publication()) + " ADD TABLE " + t);
        }
        log.info("added signal table {} to publication \"{}\"", table(source), source.publication());
    }

    /** True when the pipeline's signal table exists (capture has started at least once). */
    public static boolean exists(Connection c, SourceConfig source) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            ps.setString(1, quoted(table(source)));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** The signal table's name as {@code tidemark drop} lists it: {@code public."tidemark_signal_<slot>"}. */
    public static String label(SourceConfig source) {
        return quoted(table(source));
    }

    /** Drops the pipeline's signal table if it exists ({@code tidemark drop}). */
    public static void drop(Connection c, SourceConfig source) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + quoted(table(source)));
        }
    }

    /**
     * Inserts an {@code execute-snapshot} signal (type incremental) for {@code tables}; returns its id,
     * {@code tidemark-<lsn>-<uuid>}. In one transaction it first takes {@code ACCESS SHARE} on each table, then reads
     * the WAL insert position into the id: an {@code ALTER TABLE} of one of them (which holds {@code ACCESS EXCLUSIVE}
     * until it ends) whose message lies before that position has therefore ended before this signal, so the signal
     * follows it in the stream ({@link #requestedAfter}).
     */
    public static String request(Connection c, SourceConfig source, List<TableId> tables) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            try (Statement s = c.createStatement()) {
                for (TableId t : tables) {
                    if (relationExists(c, t)) {
                        s.execute("LOCK TABLE " + quoted(t) + " IN ACCESS SHARE MODE");
                    }
                }
            }
            String id;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_current_wal_insert_lsn()::text")) {
                rs.next();
                id = "tidemark-" + String.format(java.util.Locale.ROOT, "%016X", Lsn.parse(rs.getString(1)).value()) + "-" + UUID.randomUUID();
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + quoted(table(source)) + " (id, type, data) VALUES (?, ?, ?)")) {
                ps.setString(1, id);
                ps.setString(2, "execute-snapshot");
                ps.setString(3, data(tables));
                ps.executeUpdate();
            }
            c.commit();
            return id;
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /**
     * True when the signal table holds an {@code execute-snapshot} of {@code table} that {@link #request} made after
     * the source position {@code lsn} (the position of a schema-change message of that table): that snapshot comes
     * later in the stream, so every row it reads is read after the change.
     */
    public static boolean requestedAfter(Connection c, SourceConfig source, TableId table, long lsn) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id, data FROM " + quoted(table(source))
                + " WHERE type = 'execute-snapshot' AND id LIKE 'tidemark-%'")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    OptionalLong at = requestLsn(rs.getString(1));
                    if (at.isPresent() && Long.compareUnsigned(at.getAsLong(), lsn) > 0
                            && rs.getString(2) != null && SnapshotRequests.requested(rs.getString(2), List.of(table)).contains(table)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The WAL position a signal id of {@link #request} records, or empty for any other id (pure). */
    static OptionalLong requestLsn(String id) {
        String[] parts = id.split("-", 3);
        if (parts.length < 3 || !parts[0].equals("tidemark") || parts[1].length() != 16) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseUnsignedLong(parts[1], 16));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static boolean relationExists(Connection c, TableId t) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            ps.setString(1, quoted(t));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** The signal's data: {@code {"data-collections": ["public\\.orders"], "type": "incremental"}} (names as literal regexes). */
    static String data(List<TableId> tables) {
        return "{\"data-collections\": [" + tables.stream().map(t -> "\"" + jsonEscape(CaptureSettings.tableRegex(t)) + "\"")
                .collect(Collectors.joining(", ")) + "], \"type\": \"incremental\"}";
    }

    private static String jsonEscape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static String quoted(TableId t) {
        return Identifiers.doubleQuoted(t.schema()) + "." + Identifiers.doubleQuoted(t.table());
    }
}
