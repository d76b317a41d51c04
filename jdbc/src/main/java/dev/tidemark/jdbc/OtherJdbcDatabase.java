package dev.tidemark.jdbc;

/**
 * The fallback for a JDBC URL without an engine of its own (anything but SQLite, PostgreSQL and MariaDB/MySQL):
 * standard SQL with double-quoted identifiers, JDBC metadata, native value types and the JVM's clock for the settle
 * delay. It can be read (watermark source, reconcile side) but never written by the sink: {@link #target()} is empty.
 * Reconcile reads it through plain result sets in transactions, with no in-database checksums, no row estimate and
 * the database's own order for key columns.
 */
public final class OtherJdbcDatabase implements Database {

    @Override
    public String name() {
        return "jdbc";
    }

    @Override
    public String localNowSql() {
        return "SELECT LOCALTIMESTAMP";
    }
}
