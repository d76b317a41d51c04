package dev.tidemark.jdbc.mariadb;

import dev.tidemark.jdbc.Queries;
import dev.tidemark.jdbc.ValueKind;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * MariaDB as a source and as a side reconcile reads: DATETIME and TIMESTAMP are read as session wall-clock time, JDBC
 * metadata takes the database as the catalog. Text keys sort by their UTF-8 bytes, zoned key values are bound as UTC
 * wall-clock time in a UTC session, rows stream through result sets. What differs from the standard-SQL defaults of
 * {@link dev.tidemark.jdbc.Database}, with its signatures: {@link dev.tidemark.jdbc.MariaDbDatabase}, which extends
 * this role (itself an extension of the target role {@link MariaDbTarget}), takes these methods as they are.
 * Extended only by it; stateless and thread-safe.
 */
public abstract class MariaDbSource extends MariaDbTarget {

    /** JDBC metadata names MariaDB's databases catalogs. */
    public boolean catalogIsSchema() {
        return true;
    }

    public String localNowSql() {
        return "SELECT NOW(6)";
    }

    public Optional<String> sessionTimeZoneQuery() {
        return Optional.of("SELECT CONCAT(@@session.time_zone, ' (system ', @@system_time_zone, ')')");
    }

    public String orderTerm(String quotedColumn, ValueKind kind) {
        return kind == ValueKind.TEXT ? "CAST(CONVERT(" + quotedColumn + " USING utf8mb4) AS BINARY)" : quotedColumn;
    }

    /** Date-times are compared in UTC, as the sink stores them. */
    public void configureReadSession(Connection c) throws SQLException {
        Queries.execute(c, "SET SESSION time_zone = '+00:00'");
    }

    public long estimatedRows(Connection c, String quotedTable, String tableName) throws SQLException {
        return Queries.longOrMinusOne(c, "SELECT table_rows FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?",
                tableName);
    }
}
