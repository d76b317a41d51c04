package dev.tidemark.jdbc;

import dev.tidemark.jdbc.mariadb.MariaDbChecksums;
import dev.tidemark.jdbc.mariadb.MariaDbSource;
import dev.tidemark.jdbc.mariadb.MariaDbTarget;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * MariaDB, backtick quoting and sessions in UTC: the registry's engine for {@code jdbc:mariadb:} and
 * {@code jdbc:mysql:} URLs, made of its three roles in {@code dev.tidemark.jdbc.mariadb}. It is its own target
 * ({@link MariaDbTarget}); source and reconcile reads come from {@link MariaDbSource}, checksums in SQL from
 * {@link MariaDbChecksums}. Stateless and thread-safe.
 */
public final class MariaDbDatabase extends MariaDbTarget implements Database {
    private static final MariaDbSource SOURCE = new MariaDbSource();
    private static final MariaDbChecksums CHECKSUMS = new MariaDbChecksums();

    @Override
    public Optional<Dialect> target() {
        return Optional.of(this);
    }

    @Override
    public Optional<ChecksumSql> checksumSql() {
        return Optional.of(CHECKSUMS);
    }

    @Override
    public boolean catalogIsSchema() {
        return true;
    }

    @Override
    public String localNowSql() {
        return SOURCE.localNowSql();
    }

    @Override
    public Optional<String> sessionTimeZone(Connection c) throws SQLException {
        return SOURCE.sessionTimeZone(c);
    }

    @Override
    public String orderTerm(String quotedColumn, ValueKind kind) {
        return SOURCE.orderTerm(quotedColumn, kind);
    }

    @Override
    public void configureReadSession(Connection c) throws SQLException {
        SOURCE.configureReadSession(c);
    }

    @Override
    public long estimatedRows(Connection c, String quotedTable, String tableName) throws SQLException {
        return SOURCE.estimatedRows(c, tableName);
    }
}
