package dev.tidemark.jdbc;

import dev.tidemark.event.ColumnType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Properties;

/**
 * PostgreSQL target. Native exact types ({@code NUMERIC(p,s)}, {@code TIMESTAMPTZ}, {@code JSONB}, {@code UUID},
 * {@code BYTEA}); tables go to the connection's current schema under the source table's name. Batches of upserts are
 * sent as multi-row statements ({@code reWriteBatchedInserts}); per-key collapsing guarantees no statement touches a
 * row twice. Strings are sent untyped ({@code stringtype=unspecified}) so JSON and UUID columns accept them. The
 * position column uses the {@code "C"} collation: it is compared byte-wise, never by locale rules.
 */
public final class PostgresDialect implements Dialect {

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
    public String quote(String identifier) {
        return Identifiers.doubleQuoted(identifier);
    }

    @Override
    public void configure(Connection connection) {
        // defaults are right: durability as the server is configured
    }

    @Override
    public String columnType(ColumnType type, boolean key) {
        String logical = type.logicalName() == null ? "" : type.logicalName();
        switch (logical) {
            case ColumnType.DECIMAL -> {
                int p = type.precision();
                int s = Math.max(type.scale(), 0);
                return p > 0 && p >= s ? "NUMERIC(" + p + "," + s + ")" : "NUMERIC";
            }
            case ColumnType.VARIABLE_SCALE_DECIMAL -> {
                return "NUMERIC";
            }
            case ColumnType.ZONED_TIMESTAMP -> {
                return "TIMESTAMPTZ";
            }
            case ColumnType.TIMESTAMP_MILLIS, ColumnType.CONNECT_TIMESTAMP -> {
                return "TIMESTAMP(3)";
            }
            case ColumnType.TIMESTAMP_MICROS, ColumnType.TIMESTAMP_NANOS -> {
                return "TIMESTAMP";
            }
            case ColumnType.DATE, ColumnType.CONNECT_DATE -> {
                return "DATE";
            }
            case ColumnType.TIME_MILLIS, ColumnType.TIME_MICROS, ColumnType.TIME_NANOS -> {
                return "TIME";
            }
            case ColumnType.ZONED_TIME -> {
                return "TIMETZ";
            }
            case ColumnType.JSON -> {
                return "JSONB";
            }
            case ColumnType.UUID -> {
                return "UUID";
            }
            default -> {
                // physical type below
            }
        }
        return switch (type.connectType()) {
            case "int8", "int16" -> "SMALLINT";
            case "int32" -> "INTEGER";
            case "int64" -> "BIGINT";
            case "float", "float32" -> "REAL";
            case "double", "float64" -> "DOUBLE PRECISION";
            case "boolean" -> "BOOLEAN";
            case "bytes" -> "BYTEA";
            default -> "TEXT";
        };
    }

    @Override
    public String textType() {
        return "TEXT";
    }

    @Override
    public String positionType() {
        return "TEXT COLLATE \"C\"";
    }

    @Override
    public String alterColumnType(String table, String column, String type) {
        return "ALTER TABLE " + quote(table) + " ALTER COLUMN " + quote(column) + " TYPE " + type;
    }

    @Override
    public String bigintType() {
        return "BIGINT";
    }

    @Override
    public String upsert(String table, List<String> columns, List<String> keyColumns, List<String> updateColumns, String positionColumn) {
        return OnConflictUpsert.sql(this::quote, table, columns, keyColumns, updateColumns, positionColumn);
    }

    /**
     * From {@code pg_attribute}, which every user may read: {@code information_schema.columns} lists only the columns
     * the user holds a privilege on, so a revoked table would look absent and the sink would try to create it.
     */
    @Override
    public String columnsQuery() {
        return "SELECT a.attname FROM pg_attribute a WHERE a.attrelid = to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?)) "
                + "AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum";
    }

    @Override
    public String missingPrivilegesQuery() {
        return "SELECT p FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE']) AS p "
                + "WHERE NOT has_table_privilege(to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?)), p)";
    }

    /**
     * Example: {@code DELETE FROM "orders" AS "__t" USING unnest(CAST(? AS text[]), CAST(? AS text[])) AS "__d"("k1", "p")
     * WHERE "__t"."id" = CAST("__d"."k1" AS bigint) AND ("__d"."p" IS NULL OR "__t"."__tidemark_position" IS NULL
     * OR "__t"."__tidemark_position" <= "__d"."p" COLLATE "C")}: one statement (one index probe per key) instead
     * of one statement per deleted row.
     */
    @Override
    public String deleteMany(String table, List<String> keyColumns, List<String> keyTypes, String positionColumn) {
        StringBuilder arrays = new StringBuilder();
        StringBuilder names = new StringBuilder();
        StringBuilder where = new StringBuilder();
        for (int i = 0; i < keyColumns.size(); i++) {
            arrays.append("CAST(? AS text[]), ");
            names.append("\"k").append(i + 1).append("\", ");
            where.append(i == 0 ? "" : " AND ").append("\"__t\".").append(quote(keyColumns.get(i)))
                    .append(" = CAST(\"__d\".\"k").append(i + 1).append("\" AS ").append(keyTypes.get(i)).append(')');
        }
        String p = "\"__t\"." + quote(positionColumn);
        return "DELETE FROM " + quote(table) + " AS \"__t\" USING unnest(" + arrays + "CAST(? AS text[])) AS \"__d\"(" + names
                + "\"p\") WHERE " + where + " AND (\"__d\".\"p\" IS NULL OR " + p + " IS NULL OR " + p + " <= \"__d\".\"p\" COLLATE \"C\")";
    }

    /**
     * Example: {@code INSERT INTO "orders" ("id", "amount", "__tidemark_position") SELECT CAST("__u"."v1" AS bigint),
     * CAST("__u"."v2" AS numeric(12,2)), CAST("__u"."v3" AS text) FROM unnest(CAST(? AS text[]), CAST(? AS text[]),
     * CAST(? AS text[])) AS "__u"("v1", "v2", "v3") ON CONFLICT …} with the conflict clause of {@link #upsert}: one
     * statement and one bind per batch instead of one per row.
     */
    @Override
    public String upsertMany(String table, List<String> columns, List<String> types, List<String> keyColumns,
                             List<String> updateColumns, String positionColumn) {
        StringBuilder select = new StringBuilder("SELECT ");
        StringBuilder arrays = new StringBuilder();
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            String sep = i == 0 ? "" : ", ";
            select.append(sep).append("CAST(\"__u\".\"v").append(i + 1).append("\" AS ").append(types.get(i)).append(')');
            arrays.append(sep).append("CAST(? AS text[])");
            names.append(sep).append("\"v").append(i + 1).append('"');
        }
        String source = select + " FROM unnest(" + arrays + ") AS \"__u\"(" + names + ")";
        return OnConflictUpsert.sql(this::quote, table, columns, source, keyColumns, updateColumns, positionColumn);
    }

    @Override
    public String arrayElement(Object value) {
        return PostgresText.of(value);
    }

    @Override
    public String columnTypesQuery() {
        return "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
                + "WHERE a.attrelid = to_regclass(quote_ident(current_schema()) || '.' || ?) AND a.attnum > 0 AND NOT a.attisdropped";
    }

    @Override
    public void bind(PreparedStatement statement, int index, Object value, ColumnType type) throws SQLException {
        Binding.bindNative(statement, index, value, i -> i.atOffset(ZoneOffset.UTC));
    }
}
