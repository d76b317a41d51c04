package dev.tidemark.jdbc.sqlite;

import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.MergingKeys;
import dev.tidemark.jdbc.Queries;
import dev.tidemark.jdbc.SqliteKeyRetype;
import dev.tidemark.jdbc.types.TargetTypes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * SQLite as the sink's target ({@link Dialect}). Type affinity decides how SQLite stores a value, so exact types are
 * stored as text ({@link SqliteTypes}): decimals as their plain decimal string (a NUMERIC affinity would round them
 * through a double), timestamps as ISO-8601 text with their full fraction ({@code 2024-05-01T10:15:30.123456Z} for
 * zoned values, no zone for local ones). The declared type keeps the source meaning ({@code DECIMAL_TEXT(12,2)},
 * {@code TIMESTAMPTZ_TEXT}) while containing "TEXT", which gives the column TEXT affinity.
 *
 * <p>Connections run in WAL mode with {@code synchronous=NORMAL}: a process crash never loses a commit; a power
 * loss can lose the last commits, together with their offsets, so they are re-applied from Kafka.
 *
 * <p>Extended only by the source role {@link SqliteSource}, which {@link dev.tidemark.jdbc.SqliteDatabase} extends. Stateless and thread-safe.
 */
public abstract class SqliteTarget implements Dialect {

    @Override
    public String name() {
        return "sqlite";
    }

    @Override
    public void configure(Connection connection) throws SQLException {
        Queries.execute(connection, "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA busy_timeout=3000");
    }

    /** The families of {@link SqliteTypes}. */
    @Override
    public TargetTypes types() {
        return SqliteTypes.REGISTRY;
    }

    @Override
    public Optional<String> alterColumnType(String table, String column, String type) {
        return Optional.empty(); // a column's declared type only sets its affinity: wider values already fit
    }

    /** SQLite cannot change a key column's declared type in place: the table is rebuilt ({@link SqliteKeyRetype}). */
    @Override
    public List<String> retypeKeyColumn(Connection connection, String table, String column, String type) throws SQLException {
        return SqliteKeyRetype.statements(connection, table, column, type, this::quote);
    }

    @Override
    public String bigintType() {
        return "INTEGER";
    }

    /**
     * Key columns of a pre-existing table whose primary key index compares text by other than {@code BINARY}
     * ({@code NOCASE}, {@code RTRIM}): {@code ON CONFLICT} would take distinct keys for one.
     */
    @Override
    public Optional<String> mergingKeyCollation(Connection connection, String table) throws SQLException {
        String sql = "SELECT x.name, x.coll FROM pragma_index_list(?) AS l, pragma_index_xinfo(l.name) AS x "
                + "WHERE l.origin = 'pk' AND x.key = 1 AND x.coll IS NOT NULL AND upper(x.coll) <> 'BINARY'";
        return MergingKeys.firstRefusal(connection, sql, table, rs -> Optional.of(MergingKeys.refusal(table, rs.getString(1),
                rs.getString(2), "compares keys that differ in case or trailing spaces as equal",
                "re-create table " + table + " with column " + rs.getString(1) + " COLLATE BINARY (byte-exact) and copy its rows over")));
    }

    @Override
    public String columnsQuery() {
        return "SELECT name FROM pragma_table_info(?)";
    }

}
