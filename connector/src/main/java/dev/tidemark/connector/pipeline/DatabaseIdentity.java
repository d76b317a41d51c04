package dev.tidemark.connector.pipeline;

/**
 * Which PostgreSQL database a connection reached, as the server itself says (never as a URL reads: two URLs of one
 * database can differ in host name, parameters or case). Two identities are one database when the database name,
 * its OID, the server's port and its start time agree, and, when both sides could read it (a non-superuser may not),
 * the cluster's {@code system_identifier} too.
 *
 * @param systemIdentifier {@code pg_control_system().system_identifier}, or null when not readable
 * @param started          {@code pg_postmaster_start_time()} as seconds since the epoch, in text
 * @param port             the server's {@code port} setting
 * @param database         {@code current_database()}
 * @param databaseOid      the database's OID
 */
public record DatabaseIdentity(String systemIdentifier, String started, int port, String database, long databaseOid) {
    /** The query reading every part but {@link #systemIdentifier()}, in component order. */
    static final String SQL = "SELECT extract(epoch FROM pg_postmaster_start_time())::text, current_setting('port')::int, "
            + "current_database(), (SELECT oid FROM pg_database WHERE datname = current_database())::bigint";
    /** The query reading {@link #systemIdentifier()}; refused to roles without access to {@code pg_control_system}. */
    static final String SYSTEM_IDENTIFIER_SQL = "SELECT system_identifier::text FROM pg_control_system()";

    /** True when {@code other} is the same database of the same running server. */
    public boolean sameAs(DatabaseIdentity other) {
        if (systemIdentifier != null && other.systemIdentifier != null && !systemIdentifier.equals(other.systemIdentifier)) {
            return false;
        }
        return database.equals(other.database) && databaseOid == other.databaseOid && port == other.port
                && started.equals(other.started);
    }
}
