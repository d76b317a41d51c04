package dev.tidemark.jdbc;

import dev.tidemark.jdbc.mariadb.MariaDbChecksums;
import dev.tidemark.jdbc.mariadb.MariaDbSource;
import dev.tidemark.jdbc.mariadb.MariaDbTarget;
import java.util.Optional;

/**
 * MariaDB, backtick quoting and sessions in UTC: the registry's engine for {@code jdbc:mariadb:} and
 * {@code jdbc:mysql:} URLs, made of its three roles in {@code dev.tidemark.jdbc.mariadb}. It is its own target
 * ({@link MariaDbTarget}) and source ({@link MariaDbSource}: reads, clock, key order, row estimate), which it
 * extends; checksums in SQL come from {@link MariaDbChecksums}. Stateless and thread-safe.
 */
public final class MariaDbDatabase extends MariaDbSource implements Database {
    private static final MariaDbChecksums CHECKSUMS = new MariaDbChecksums();

    @Override
    public Optional<ChecksumSql> checksumSql() {
        return Optional.of(CHECKSUMS);
    }
}
