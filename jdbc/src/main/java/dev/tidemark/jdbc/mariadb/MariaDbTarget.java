package dev.tidemark.jdbc.mariadb;

import dev.tidemark.event.RowSchema;
import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.Identifiers;
import dev.tidemark.jdbc.MariaDbCollations;
import dev.tidemark.jdbc.MariaDbKeyLayout;
import dev.tidemark.jdbc.MergingKeys;
import dev.tidemark.jdbc.Queries;
import dev.tidemark.jdbc.WriteStatements;
import dev.tidemark.jdbc.types.TargetTypes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * MariaDB (and MySQL URLs) as the sink's target ({@link Dialect}), backtick quoting. Sessions run with
 * {@code time_zone='+00:00'}; zoned timestamps are stored as {@code DATETIME(6)} in UTC (MariaDB's {@code TIMESTAMP}
 * ends in 2038). Column types come from {@link MariaDbTypes}; key columns are sized by {@link MariaDbKeyLayout} (text
 * keys {@code VARCHAR} in a binary collation, the whole key within InnoDB's limit), other text {@code LONGTEXT}, all
 * of it {@code utf8mb4_nopad_bin} (byte-exact); a pre-existing table whose key collation would merge keys is refused
 * ({@link #mergingKeyCollation}). Sessions are strict ({@code STRICT_ALL_TABLES}): a value that does not fit is
 * refused, never cut. DDL commits implicitly on MariaDB; the sink runs DDL before the data transaction, never inside
 * it. Upserts are {@link WriteStatements#onDuplicateKeyUpsert}.
 *
 * <p>Extended only by the source role {@link MariaDbSource}, which {@link dev.tidemark.jdbc.MariaDbDatabase} extends. Stateless
 * and thread-safe.
 */
public abstract class MariaDbTarget implements Dialect {
    private final WriteStatements statements = new WriteStatements(this::quote);

    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    public String quote(String identifier) {
        return Identifiers.backticked(identifier);
    }

    /** UTC and strict: a value too long for its column is refused, never cut (a cut key would merge distinct rows). */
    @Override
    public void configure(Connection connection) throws SQLException {
        Queries.execute(connection, "SET SESSION time_zone = '+00:00'", "SET SESSION sql_mode = IF(@@SESSION.sql_mode = '', "
                + "'STRICT_ALL_TABLES', CONCAT(@@SESSION.sql_mode, ',STRICT_ALL_TABLES'))");
    }

    /** The families of {@link MariaDbTypes}. */
    @Override
    public TargetTypes types() {
        return MariaDbTypes.REGISTRY;
    }

    /** Sized to fit InnoDB's key limit whole, binary text keys: see {@link MariaDbKeyLayout}. */
    @Override
    public Map<String, String> keyColumnTypes(String table, RowSchema schema) {
        return MariaDbKeyLayout.layout(table, schema, t -> columnType(t, false));
    }

    /** Key columns of a pre-existing table whose collation is not byte-exact: see {@link MariaDbCollations}. */
    @Override
    public Optional<String> mergingKeyCollation(Connection connection, String table) throws SQLException {
        String sql = "SELECT c.column_name, c.collation_name, c.column_type FROM information_schema.columns c "
                + "JOIN information_schema.key_column_usage k ON k.table_schema = c.table_schema AND k.table_name = c.table_name "
                + "AND k.column_name = c.column_name AND k.constraint_name = 'PRIMARY' "
                + "WHERE c.table_schema = DATABASE() AND c.table_name = ? AND c.collation_name IS NOT NULL ORDER BY k.ordinal_position";
        return MergingKeys.firstRefusal(connection, sql, table,
                rs -> MariaDbCollations.refusal(table, rs.getString(1), rs.getString(2), rs.getString(3)));
    }

    /** Tidemark's own keys (topics, table names) are case-sensitive. */
    @Override
    public String textType() {
        return "VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin";
    }

    @Override
    public String positionType() {
        return "VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin";
    }

    @Override
    public Optional<String> alterColumnType(String table, String column, String type) {
        return Optional.of("ALTER TABLE " + quote(table) + " MODIFY COLUMN " + quote(column) + " " + type);
    }

    @Override
    public String upsert(String table, List<String> columns, List<String> keyColumns, List<String> updateColumns, String positionColumn) {
        return statements.onDuplicateKeyUpsert(table, columns, updateColumns, positionColumn);
    }

    @Override
    public String columnsQuery() {
        return "SELECT column_name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? "
                + "ORDER BY ordinal_position";
    }


    @Override
    public String constantsFrom() {
        return " FROM DUAL";
    }
}
