package dev.tidemark.connector.debezium;

import dev.tidemark.jdbc.Identifiers;
import dev.tidemark.jdbc.JdbcEndpoints;
import dev.tidemark.jdbc.UsageException;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a PostgreSQL source before capture starts and states expected against actual: {@code wal_level} must be
 * {@code logical}; every captured table must exist and have a primary key (the sink applies by key); every captured
 * table needs {@code REPLICA IDENTITY FULL} so updates and deletes carry complete before-images (set here when the
 * configuration allows it, else reported); every captured column must have a type that arrives exactly on the
 * target ({@link TypeSupport}), else it is reported naming table, column and type; the connecting user must hold every
 * privilege capture needs ({@link CapturePrivileges}), else each missing one is reported with the statement that grants it.
 * A partitioned table is captured as its root, every member of its tree with {@code REPLICA IDENTITY FULL}; what kind
 * of table each one may be is {@link PartitionPreflight}'s to check.
 */
public final class SourcePreflight {
    private static final Logger log = LoggerFactory.getLogger(SourcePreflight.class);

    private SourcePreflight() {
    }

    /**
     * Checks everything first and changes nothing until every check passed: only then are the tables that lack
     * {@code REPLICA IDENTITY FULL} altered (when the configuration allows it).
     *
     * @throws IllegalStateException listing every problem found
     */
    public static void check(SourceConfig source, TypeSupport.Target target) {
        check(source, target, () -> { });
    }

    /**
     * As {@link #check(SourceConfig, TypeSupport.Target)}, and runs {@code moreChecks} (checks elsewhere, e.g. of the
     * Kafka topics) once every source check passed and before anything is changed; what it throws stops the start.
     */
    public static void check(SourceConfig source, TypeSupport.Target target, Runnable moreChecks) {
        Properties p = new Properties();
        p.setProperty("user", source.user());
        if (!source.password().isEmpty()) {
            p.setProperty("password", source.password().reveal());
        }
        List<String> problems = new ArrayList<>();
        String where = source.host() + ":" + source.port() + "/" + source.database();
        Connection c;
        try {
            c = JdbcEndpoints.open(JdbcEndpoints.Side.SOURCE, source.jdbcUrl(), p);
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        try (c) {
            String wal = single(c, "SHOW wal_level");
            if (!"logical".equals(wal)) {
                problems.add("wal_level must be 'logical' but is: '" + wal + "' (set wal_level=logical and restart PostgreSQL)");
            }
            // partitioned tables, partitions and unlogged tables first: a refusal there is one line per table
            List<TableId> toAlter = new ArrayList<>(PartitionPreflight.check(c, source, problems));
            for (TableId t : source.tables()) {
                checkTable(c, t, source.setReplicaIdentityFull(), problems).ifPresent(toAlter::add);
                List<CapturedColumn> columns = columns(c, t);
                for (CapturedColumn col : columns) {
                    if (!source.excludes(t, col.column())) {
                        TypeSupport.refusal(col, target).ifPresent(problems::add);
                    }
                }
                problems.addAll(ExcludedColumns.problems(source, t, columns, primaryKey(c, t)));
            }
            problems.addAll(CapturePrivileges.missing(c, source));
            if (problems.isEmpty()) {
                moreChecks.run();
                for (TableId t : toAlter) {
                    try (Statement s = c.createStatement()) {
                        s.execute("ALTER TABLE " + quote(t.schema()) + "." + quote(t.table()) + " REPLICA IDENTITY FULL");
                    }
                    log.info("set REPLICA IDENTITY FULL on {} so updates and deletes carry before-images", t);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot check source " + where + ": " + e.getMessage(), e);
        }
        if (!problems.isEmpty()) {
            throw notReady(where, problems);
        }
    }

    /** Adds the table's problems; returns it when it needs {@code REPLICA IDENTITY FULL} set (and that is allowed). */
    private static java.util.Optional<TableId> checkTable(Connection c, TableId t, boolean setFull, List<String> problems)
            throws SQLException {
        String sql = "SELECT c.relreplident, EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary), c.relkind "
                + "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, t.schema());
            ps.setString(2, t.table());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    problems.add("table " + t + " does not exist");
                    return java.util.Optional.empty();
                }
                String identity = rs.getString(1);
                boolean hasKey = rs.getBoolean(2);
                Optional<String> notATable = notATable(t, rs.getString(3));
                if (notATable.isPresent()) {
                    problems.add(notATable.get());
                    return java.util.Optional.empty();
                }
                if (!hasKey) {
                    problems.add("table " + t + " has no primary key (the sink applies changes by primary key; add one)");
                }
                if ("f".equals(identity)) {
                    return java.util.Optional.empty();
                }
                if (setFull) {
                    return java.util.Optional.of(t);
                }
                problems.add("table " + t + " must have REPLICA IDENTITY FULL but has '" + identity
                        + "' (run ALTER TABLE " + quote(t.schema()) + "." + quote(t.table())
                        + " REPLICA IDENTITY FULL, or set source.setReplicaIdentityFull: true)");
                return java.util.Optional.empty();
            }
        }
    }

    /** The problem of a captured relation that is a view or materialized view (pure); empty for a table. */
    static Optional<String> notATable(TableId t, String relkind) {
        return switch (relkind) {
            case "v" -> Optional.of(t + " is a view: logical replication captures tables only (capture its tables instead)");
            case "m" -> Optional.of(t + " is a materialized view: logical replication captures tables only (capture its tables instead)");
            default -> Optional.empty();
        };
    }

    /** The refusal when a check failed: the request must change (exit 2), and nothing was changed. */
    static UsageException notReady(String where, List<String> problems) {
        return new UsageException("source " + where + " is not ready for CDC (nothing was changed):\n  " + String.join("\n  ", problems));
    }

    /**
     * The table's columns with their types; a domain is described by its base type. Example row for
     * {@code v int[][]}: {@code v | integer[] | _int4 | b | A | null}.
     */
    static List<CapturedColumn> columns(Connection c, TableId t) throws SQLException {
        String sql = "SELECT a.attname, format_type(a.atttypid, a.atttypmod), b.typname, b.typtype, b.typcategory, "
                + "CASE WHEN d.typtype = 'd' THEN d.typname END "
                + "FROM pg_attribute a JOIN pg_type d ON d.oid = a.atttypid "
                + "JOIN pg_type b ON b.oid = CASE WHEN d.typtype = 'd' THEN d.typbasetype ELSE d.oid END "
                + "JOIN pg_class k ON k.oid = a.attrelid JOIN pg_namespace n ON n.oid = k.relnamespace "
                + "WHERE n.nspname = ? AND k.relname = ? AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum";
        return CatalogRows.list(c, sql, rs -> new CapturedColumn(t, rs.getString(1), rs.getString(2), rs.getString(3),
                rs.getString(4).charAt(0), rs.getString(5).charAt(0), rs.getString(6)), t.schema(), t.table());
    }

    /** The table's primary-key columns (empty when it has none or does not exist). */
    static List<String> primaryKey(Connection c, TableId t) throws SQLException {
        String sql = "SELECT a.attname FROM pg_index i JOIN pg_class k ON k.oid = i.indrelid "
                + "JOIN pg_namespace n ON n.oid = k.relnamespace JOIN pg_attribute a ON a.attrelid = k.oid AND a.attnum = ANY (i.indkey) "
                + "WHERE i.indisprimary AND n.nspname = ? AND k.relname = ?";
        return CatalogRows.list(c, sql, rs -> rs.getString(1), t.schema(), t.table());
    }

    private static String single(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    static String quote(String identifier) {
        return Identifiers.doubleQuoted(identifier);
    }
}
