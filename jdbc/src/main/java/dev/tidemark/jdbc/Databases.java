package dev.tidemark.jdbc;

/**
 * The registry of engines: picks the {@link Database} for a JDBC URL by its scheme, the one URL switch in Tidemark.
 * {@code jdbc:sqlite:}, {@code jdbc:postgresql:}, {@code jdbc:mariadb:} and {@code jdbc:mysql:} have their own
 * engine; any other URL gets {@link OtherJdbcDatabase}, which a source may be and a sink target may not
 * ({@link #targetForUrl} refuses it naming the scheme).
 */
public final class Databases {
    private static final SqliteDatabase SQLITE = new SqliteDatabase();
    private static final PostgresDatabase POSTGRESQL = new PostgresDatabase();
    private static final MariaDbDatabase MARIADB = new MariaDbDatabase();
    private static final OtherJdbcDatabase OTHER = new OtherJdbcDatabase();

    private Databases() {
    }

    /** The engine of a JDBC URL; {@link OtherJdbcDatabase} for a scheme without its own engine. */
    public static Database forUrl(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:sqlite:")) {
            return SQLITE;
        }
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            return POSTGRESQL;
        }
        if (jdbcUrl.startsWith("jdbc:mariadb:") || jdbcUrl.startsWith("jdbc:mysql:")) {
            return MARIADB;
        }
        return OTHER;
    }

    /**
     * The sink's facet of a JDBC URL's engine.
     *
     * @throws UsageException naming the URL scheme when the engine cannot be a sink target
     */
    public static Dialect targetForUrl(String jdbcUrl) {
        return forUrl(jdbcUrl).target().orElseThrow(() -> {
            int colon = jdbcUrl.indexOf(':', 5);
            String scheme = colon > 0 ? jdbcUrl.substring(0, colon) : jdbcUrl;
            return new UsageException("unsupported target " + scheme
                    + " (supported: jdbc:sqlite, jdbc:postgresql, jdbc:mariadb)");
        });
    }
}
