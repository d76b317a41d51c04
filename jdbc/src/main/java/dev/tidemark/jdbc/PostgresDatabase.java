package dev.tidemark.jdbc;

import dev.tidemark.jdbc.postgres.PostgresChecksums;
import dev.tidemark.jdbc.postgres.PostgresSource;
import dev.tidemark.jdbc.postgres.PostgresTarget;
import java.util.Optional;

/**
 * PostgreSQL, native types throughout: the registry's engine for {@code jdbc:postgresql:} URLs, made of its three
 * roles in {@code dev.tidemark.jdbc.postgres}. It is its own target ({@link PostgresTarget}: DDL from the type
 * registry, writes, set writes) and source ({@link PostgresSource}: reads, clock, key order, row estimate, WAL
 * position), which it extends; checksums in SQL come from {@link PostgresChecksums}. Stateless and thread-safe.
 */
public final class PostgresDatabase extends PostgresSource implements Database {
    private static final PostgresChecksums CHECKSUMS = new PostgresChecksums();

    @Override
    public Optional<ChecksumSql> checksumSql() {
        return Optional.of(CHECKSUMS);
    }
}
