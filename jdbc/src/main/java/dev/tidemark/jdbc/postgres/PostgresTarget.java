package dev.tidemark.jdbc.postgres;

import dev.tidemark.jdbc.Dialect;
import dev.tidemark.jdbc.MergingKeys;
import dev.tidemark.jdbc.PostgresLengths;
import dev.tidemark.jdbc.SetWrites;
import dev.tidemark.jdbc.WriteStatements;
import dev.tidemark.jdbc.types.TargetTypes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * PostgreSQL as the sink's target ({@link Dialect}): native exact types from {@link PostgresTypes} ({@code NUMERIC(p,s)},
 * {@code TIMESTAMPTZ}, {@code JSONB}, {@code UUID}, {@code BYTEA}, …); tables go to the connection's current schema under
 * the source table's name. Batches of upserts are sent as multi-row statements ({@code reWriteBatchedInserts}), or
 * as one {@code unnest} statement per batch ({@link SetWrites}); per-key collapsing guarantees no statement touches
 * a row twice. Strings are sent untyped ({@code stringtype=unspecified}) so JSON and UUID columns accept them. The
 * position column uses the {@code "C"} collation: it is compared byte-wise, never by locale rules.
 *
 * <p>Extended only by the source role {@link PostgresSource}, which {@link dev.tidemark.jdbc.PostgresDatabase} extends. Stateless
 * and thread-safe.
 */
public abstract class PostgresTarget implements Dialect, SetWrites {
    private static final String CURRENT_SCHEMA_TABLE = "to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?))";
    private final WriteStatements statements = new WriteStatements(this::quote);

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public Properties connectionDefaults() {
        Properties p = new Properties();
        p.setProperty("reWriteBatchedInserts", "true");
        p.setProperty("stringtype", "unspecified");
        return p;
    }

    @Override
    public void configure(Connection connection) {
        // defaults are right: durability as the server is configured
    }

    /** The families of {@link PostgresTypes}. */
    @Override
    public TargetTypes types() {
        return PostgresTypes.REGISTRY;
    }

    @Override
    public String positionType() {
        return "TEXT COLLATE \"C\"";
    }

    /**
     * {@link #alterColumnType} with {@code USING "c"::type}: an explicit cast, so that also types without an
     * assignment cast convert.
     */
    @Override
    public Optional<String> retypeColumn(String table, String column, String type) {
        return alterColumnType(table, column, type).map(sql -> sql + " USING " + quote(column) + "::" + type);
    }

    /**
     * From {@code pg_attribute}, which every user may read: {@code information_schema.columns} lists only the columns
     * the user holds a privilege on, so a revoked table would look absent and the sink would try to create it.
     */
    @Override
    public String columnsQuery() {
        return "SELECT a.attname FROM pg_attribute a WHERE a.attrelid = " + CURRENT_SCHEMA_TABLE
                + " AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum";
    }

    @Override
    public Optional<SetWrites> setWrites() {
        return Optional.of(this);
    }

    @Override
    public Optional<String> missingPrivilegesQuery() {
        return Optional.of("SELECT p FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE']) AS p "
                + "WHERE NOT has_table_privilege(" + CURRENT_SCHEMA_TABLE + ", p)");
    }

    /** {@link WriteStatements#unnestDelete}, each key cast to its type without a length ({@link PostgresLengths#castType}). */
    @Override
    public String deleteMany(String table, List<String> keyColumns, List<String> keyTypes, String positionColumn) {
        return statements.unnestDelete(table, keyColumns, keyTypes.stream().map(PostgresLengths::castType).toList(), positionColumn);
    }

    /**
     * {@link #upsert} with the rows of {@link WriteStatements#unnestRows}: one statement and one bind per batch instead
     * of one per row. A length-limited type is cast without its length ({@link PostgresLengths#castType}): an explicit
     * cast would cut a longer value silently, the insert refuses it.
     */
    @Override
    public String upsertMany(String table, List<String> columns, List<String> types, List<String> keyColumns,
                             List<String> updateColumns, String positionColumn) {
        String rows = statements.unnestRows(types.stream().map(PostgresLengths::castType).toList());
        return statements.onConflictUpsert(table, columns, rows, keyColumns, updateColumns, positionColumn);
    }

    /**
     * Key columns of a pre-existing table whose primary key index uses a nondeterministic collation (ICU collations
     * created with {@code deterministic = false}): {@code ON CONFLICT} would take distinct keys for one.
     */
    @Override
    public Optional<String> mergingKeyCollation(Connection connection, String table) throws SQLException {
        String sql = "SELECT a.attname, c.collname, format_type(a.atttypid, a.atttypmod) FROM pg_index i "
                + "CROSS JOIN LATERAL unnest(i.indkey::int2[], i.indcollation::oid[]) AS k(attnum, coll) "
                + "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum JOIN pg_collation c ON c.oid = k.coll "
                + "WHERE i.indrelid = " + CURRENT_SCHEMA_TABLE + " AND i.indisprimary AND NOT c.collisdeterministic";
        return MergingKeys.firstRefusal(connection, sql, table, rs -> {
            String fix = "ALTER TABLE " + quote(table) + " ALTER COLUMN " + quote(rs.getString(1)) + " TYPE " + rs.getString(3) + " COLLATE \"C\"";
            return Optional.of(MergingKeys.refusal(table, rs.getString(1), rs.getString(2),
                    "is nondeterministic (it compares distinct text as equal)", "run `" + fix + "` (byte-exact)"));
        });
    }

    /** Length-limited strings: see {@link PostgresLengths#fits}. */
    @Override
    public boolean fits(String element, String type) {
        return PostgresLengths.fits(element, type);
    }

    /** The value's text in PostgreSQL's input format, from its {@link PostgresTypes} family. */
    @Override
    public String arrayElement(Object value) {
        return PostgresTypes.REGISTRY.text(value);
    }

    @Override
    public String columnTypesQuery() {
        return "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
                + "WHERE a.attrelid = to_regclass(quote_ident(current_schema()) || '.' || ?) AND a.attnum > 0 AND NOT a.attisdropped";
    }

}
