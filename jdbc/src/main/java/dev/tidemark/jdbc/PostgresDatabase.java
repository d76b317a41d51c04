package dev.tidemark.jdbc;

import dev.tidemark.jdbc.postgres.PostgresChecksums;
import dev.tidemark.jdbc.postgres.PostgresSource;
import dev.tidemark.jdbc.postgres.PostgresTarget;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Optional;

/**
 * PostgreSQL, native types throughout: the registry's engine for {@code jdbc:postgresql:} URLs, made of its three
 * roles in {@code dev.tidemark.jdbc.postgres}. It is its own target ({@link PostgresTarget}: DDL from per-type
 * classes, writes, set writes); source and reconcile reads come from {@link PostgresSource}, checksums in SQL from
 * {@link PostgresChecksums}. Stateless and thread-safe.
 */
public final class PostgresDatabase extends PostgresTarget implements Database {
    private static final PostgresSource SOURCE = new PostgresSource();
    private static final PostgresChecksums CHECKSUMS = new PostgresChecksums();

    @Override
    public Optional<Dialect> target() {
        return Optional.of(this);
    }

    @Override
    public Optional<ChecksumSql> checksumSql() {
        return Optional.of(CHECKSUMS);
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
    public boolean explainsPlans() {
        return true;
    }

    @Override
    public ReadPath readPath() {
        return SOURCE.readPath();
    }

    @Override
    public String orderTerm(String quotedColumn, ValueKind kind) {
        return SOURCE.orderTerm(quotedColumn, kind);
    }

    @Override
    public String keyParameter(ValueKind kind, String declaredType) {
        return SOURCE.keyParameter(kind, declaredType);
    }

    @Override
    public Object zonedKey(OffsetDateTime t) {
        return SOURCE.zonedKey(t);
    }

    @Override
    public long estimatedRows(Connection c, String quotedTable, String tableName) throws SQLException {
        return SOURCE.estimatedRows(c, quotedTable);
    }

    @Override
    public Optional<String> positionQuery() {
        return SOURCE.positionQuery();
    }
}
