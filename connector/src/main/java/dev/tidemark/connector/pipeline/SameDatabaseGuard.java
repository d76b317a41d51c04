package dev.tidemark.connector.pipeline;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.jdbc.UsageException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses a pipeline whose target is its own source database (a copy-paste slip in {@code target.url}) before anything
 * is created or changed on either side: the sink would add its position column to the captured tables, rewrite their
 * rows and create its own tables there. "Same database" is decided by the servers' own {@link DatabaseIdentity}, read
 * on a connection to each side that only reads the catalog. Only a PostgreSQL target can be the (PostgreSQL) source.
 * When either side cannot be reached the guard says nothing: the checks that follow name that side and its failure.
 */
public final class SameDatabaseGuard {
    private static final Logger log = LoggerFactory.getLogger(SameDatabaseGuard.class);

    private SameDatabaseGuard() {
    }

    /** @throws UsageException one line naming both URLs (masked) and what to change, when the target is the source */
    public static void check(PipelineConfig config) {
        TargetConfig t = config.target();
        if (t.jdbcUrl() == null || !t.jdbcUrl().startsWith("jdbc:postgresql:")) {
            return;
        }
        SourceConfig s = config.source();
        Optional<DatabaseIdentity> source = identity(s.jdbcUrl(), properties(s.user(), s.password().isEmpty() ? null : s.password().reveal()));
        if (source.isEmpty()) {
            return;
        }
        Optional<DatabaseIdentity> target = identity(t.jdbcUrl(), properties(t.user(), t.password().isEmpty() ? null : t.password().reveal()));
        if (target.isPresent() && source.get().sameAs(target.get())) {
            throw new UsageException(message(config));
        }
    }

    /** The refusal's line. */
    static String message(PipelineConfig config) {
        return "target.url " + UrlMask.mask(config.target().jdbcUrl()) + " is the source database (source.url "
                + UrlMask.mask(config.source().jdbcUrl()) + "): the sink would add its columns to the captured tables "
                + config.source().tables() + " and rewrite their rows, so nothing was started or changed; "
                + "point target.url at another database";
    }

    private static Optional<DatabaseIdentity> identity(String url, Properties p) {
        try (Connection c = DriverManager.getConnection(url, p)) {
            c.setReadOnly(true);
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(DatabaseIdentity.SQL)) {
                rs.next();
                return Optional.of(new DatabaseIdentity(systemIdentifier(c), rs.getString(1), rs.getInt(2), rs.getString(3), rs.getLong(4)));
            }
        } catch (SQLException e) {
            log.debug("cannot read the identity of {}: {}", UrlMask.mask(url), UrlMask.mask(e.getMessage(), url));
            return Optional.empty();
        }
    }

    private static String systemIdentifier(Connection c) {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(DatabaseIdentity.SYSTEM_IDENTIFIER_SQL)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            return null; // a role without access to pg_control_system: the other parts decide
        }
    }

    private static Properties properties(String user, String password) {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        p.setProperty("connectTimeout", "10");
        p.setProperty("ApplicationName", "tidemark guard");
        return p;
    }
}
