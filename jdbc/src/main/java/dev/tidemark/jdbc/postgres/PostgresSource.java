package dev.tidemark.jdbc.postgres;

import dev.tidemark.jdbc.Identifiers;
import dev.tidemark.jdbc.Queries;
import dev.tidemark.jdbc.ReadPath;
import dev.tidemark.jdbc.SourceSql;
import dev.tidemark.jdbc.ValueKind;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Locale;
import java.util.Optional;

/**
 * PostgreSQL as a source and as a side reconcile reads: values in their native types (the standard reads of
 * {@link SourceSql}); the clock is {@code CURRENT_TIMESTAMP}/{@code LOCALTIMESTAMP}. Text keys sort by byte
 * ({@code COLLATE "C"}), rows stream with {@code COPY … TO STDOUT} ({@link ReadPath#COPY_TEXT}), zoned key values are
 * bound with their offset, and a report holds at the WAL position. What differs from the standard-SQL defaults of
 * {@link dev.tidemark.jdbc.Database}, with its signatures: {@link dev.tidemark.jdbc.PostgresDatabase}, which extends
 * this role (itself an extension of the target role {@link PostgresTarget}), takes these methods as they are.
 * Extended only by it; stateless and thread-safe.
 */
public abstract class PostgresSource extends PostgresTarget {

    public boolean explainsPlans() {
        return true;
    }

    public String localNowSql() {
        return "SELECT LOCALTIMESTAMP";
    }

    public Optional<String> sessionTimeZoneQuery() {
        return Optional.of("SHOW TimeZone");
    }

    public ReadPath readPath() {
        return ReadPath.COPY_TEXT;
    }

    public String orderTerm(String quotedColumn, ValueKind kind) {
        return kind == ValueKind.TEXT ? "CAST(" + quotedColumn + " AS text) COLLATE \"C\"" : quotedColumn;
    }

    /** A text parameter compares with a uuid, json or domain column only through a cast to the column's type. */
    public String keyParameter(ValueKind kind, String declaredType) {
        if (kind != ValueKind.TEXT) {
            return "?";
        }
        String t = declaredType.toLowerCase(Locale.ROOT);
        if (t.equals("text") || t.equals("varchar") || t.equals("bpchar") || t.equals("name")) {
            return "?";
        }
        return "CAST(? AS " + Identifiers.doubleQuoted(declaredType) + ")";
    }

    /** Zoned key values keep their offset: PostgreSQL compares them as instants. */
    public Object zonedKey(OffsetDateTime t) {
        return t;
    }

    public long estimatedRows(Connection c, String quotedTable, String tableName) throws SQLException {
        return Queries.longOrMinusOne(c, "SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass(?)", quotedTable);
    }

    public Optional<String> positionQuery() {
        return Optional.of("SELECT pg_current_wal_lsn()::text");
    }
}
