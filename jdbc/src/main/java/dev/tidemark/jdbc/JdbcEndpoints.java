package dev.tidemark.jdbc;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;

/**
 * Checks a JDBC URL before anything is opened, and opens it with a failure message that names the side: every check
 * that can be made without touching a database comes first ({@link #refusal}), so a wrong URL changes nothing. A
 * URL needs a JDBC driver on the class path (Tidemark ships SQLite, PostgreSQL and MariaDB; other databases can be
 * a reconcile or watermark source when their driver is added); a target or control database must also be one the
 * sink can write to; a SQLite source must be an existing file (opening a missing one would create it empty). A
 * connection that fails says which side (source, target, control), the host (or file) and the reason, never a
 * credential.
 */
public final class JdbcEndpoints {
    /** The databases the sink writes to and Tidemark ships drivers for. */
    public static final String SUPPORTED = "jdbc:sqlite, jdbc:postgresql, jdbc:mariadb";

    /** Which side of a pipeline a URL is, as messages name it. */
    public enum Side {
        SOURCE, TARGET, CONTROL;

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        boolean writes() {
            return this != SOURCE;
        }
    }

    private JdbcEndpoints() {
    }

    /** Why {@code url} cannot be the {@code side} (one line, credentials masked), or empty when it can. */
    public static Optional<String> refusal(Side side, String url) {
        return refusal(side, url, side == Side.SOURCE, side.writes());
    }

    /**
     * Why {@code url} cannot be read as the {@code side} of a comparison (reconcile reads both sides and writes
     * neither unless it repairs): a driver, and an existing file for SQLite.
     */
    public static Optional<String> readRefusal(Side side, String url) {
        return refusal(side, url, true, false);
    }

    private static Optional<String> refusal(Side side, String url, boolean mustExist, boolean writes) {
        String scheme = scheme(url);
        boolean driver;
        try {
            driver = DriverManager.getDriver(url) != null;
        } catch (SQLException e) {
            driver = false;
        }
        if (!driver) {
            return Optional.of("unsupported " + side + " " + UrlMask.mask(url) + ": no JDBC driver for " + scheme + " (supported: "
                    + SUPPORTED + (scheme.equals("jdbc:mysql") ? "; for MySQL or MariaDB write jdbc:mariadb://" : "") + ")");
        }
        if (writes && Databases.forUrl(url).target().isEmpty()) {
            return Optional.of("unsupported " + side + " " + UrlMask.mask(url) + ": Tidemark cannot write to " + scheme
                    + " (supported: " + SUPPORTED + ")");
        }
        if (mustExist) {
            Optional<Path> file = sqliteFile(url);
            if (file.isPresent() && !Files.isRegularFile(file.get())) {
                return Optional.of(side + " " + file.get().toAbsolutePath() + " does not exist (a SQLite " + side
                        + " that is read must be an existing file; check the path in " + UrlMask.mask(url) + ")");
            }
        }
        return Optional.empty();
    }

    /** @throws UsageException with the {@link #refusal} when there is one */
    public static void check(Side side, String url) {
        Optional<String> refusal = refusal(side, url);
        if (refusal.isPresent()) {
            throw new UsageException(refusal.get());
        }
    }

    /**
     * {@link #check}s, then connects; a failure to connect is an {@link SQLException} naming the side, host and
     * reason (with the cause's reason when the driver's own message is generic, e.g. an unknown host).
     */
    public static Connection open(Side side, String url, Properties properties) throws SQLException {
        check(side, url);
        try {
            return DriverManager.getConnection(url, properties);
        } catch (SQLException e) {
            throw new SQLException(connectFailure(side, url, e), e.getSQLState(), e);
        }
    }

    /** The one-line message of a failed connection to {@code url}. */
    public static String connectFailure(Side side, String url, Throwable e) {
        String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
        Throwable cause = e.getCause();
        if (cause != null && cause != e && cause.getMessage() != null && !reason.contains(cause.getMessage())) {
            reason += " (" + (cause instanceof java.net.UnknownHostException ? "unknown host " : "") + cause.getMessage() + ")";
        }
        return "cannot connect to the " + side + " at " + host(url) + " (" + UrlMask.mask(url) + "): " + UrlMask.mask(reason, url);
    }

    /** {@code host:port} of a server URL, the file of a SQLite URL, else the URL masked. */
    public static String host(String url) {
        Optional<Path> file = sqliteFile(url);
        if (file.isPresent()) {
            return file.get().toString();
        }
        int slashes = url.indexOf("//");
        if (slashes > 0) {
            try {
                String rest = url.substring(slashes);
                int end = rest.length();
                for (char c : new char[] {'?', ';'}) {
                    int i = rest.indexOf(c);
                    if (i > 0 && i < end) {
                        end = i;
                    }
                }
                URI u = URI.create("x:" + rest.substring(0, end));
                if (u.getHost() != null) {
                    return u.getHost() + (u.getPort() > 0 ? ":" + u.getPort() : "");
                }
            } catch (IllegalArgumentException e) {
                // not URI-shaped: fall through
            }
        }
        return UrlMask.mask(url);
    }

    /**
     * {@code url} with a relative SQLite file resolved against {@code baseDir} (the folder of the config file that
     * names it), so a pipeline finds its files wherever it is started from; other URLs unchanged. Example:
     * {@code jdbc:sqlite:replica.db} in {@code /etc/shop/pipeline.yaml} is {@code jdbc:sqlite:/etc/shop/replica.db}.
     */
    public static String relativeTo(String url, Path baseDir) {
        if (url == null || baseDir == null) {
            return url;
        }
        Optional<Path> file = sqliteFile(url);
        if (file.isEmpty() || file.get().isAbsolute()) {
            return url;
        }
        String rest = url.substring("jdbc:sqlite:".length());
        boolean uri = rest.startsWith("file:");
        int q = rest.indexOf('?');
        String query = q >= 0 ? rest.substring(q) : "";
        return "jdbc:sqlite:" + (uri ? "file:" : "") + baseDir.resolve(file.get()).normalize() + query;
    }

    /** The file of a {@code jdbc:sqlite:} URL (empty for in-memory databases and other URLs). */
    public static Optional<Path> sqliteFile(String url) {
        if (!url.startsWith("jdbc:sqlite:")) {
            return Optional.empty();
        }
        String path = url.substring("jdbc:sqlite:".length());
        if (path.startsWith("file:")) {
            path = path.substring("file:".length());
        }
        int q = path.indexOf('?');
        if (q >= 0) {
            path = path.substring(0, q);
        }
        if (path.isEmpty() || path.equals(":memory:") || path.startsWith(":resource:")) {
            return Optional.empty();
        }
        return Optional.of(Path.of(path));
    }

    private static String scheme(String url) {
        int colon = url.indexOf(':', 5);
        return colon > 0 ? url.substring(0, colon) : url;
    }
}
