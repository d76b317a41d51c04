package dev.tidemark.jdbc;

import dev.tidemark.event.ColumnType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * PostgreSQL: native types throughout.
 *
 * <p>As a target, native exact types ({@code NUMERIC(p,s)}, {@code TIMESTAMPTZ}, {@code JSONB}, {@code UUID},
 * {@code BYTEA}); tables go to the connection's current schema under the source table's name. Batches of upserts are
 * sent as multi-row statements ({@code reWriteBatchedInserts}); per-key collapsing guarantees no statement touches a
 * row twice. Strings are sent untyped ({@code stringtype=unspecified}) so JSON and UUID columns accept them. The
 * position column uses the {@code "C"} collation: it is compared byte-wise, never by locale rules.

 *
 * <p>As a source, values are read in their native types; the clock is {@code CURRENT_TIMESTAMP}/{@code LOCALTIMESTAMP}.
 * Reconcile sorts text keys by byte ({@code COLLATE "C"}), streams rows with {@code COPY … TO STDOUT}
 * ({@link ReadPath#COPY_TEXT}), computes segment checksums in SQL ({@code md5}, or {@code hashtextextended} when
 * both sides are PostgreSQL), and reports the WAL position it compared at.
 */
public final class PostgresDatabase implements Database, Dialect, SetWrites, ChecksumSql {
    /** PostgreSQL's largest declared length of {@code char(n)} and {@code varchar(n)}. */
    private static final int MAX_CHAR_LENGTH = 10_485_760;

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
                // json keeps its text (spacing, key order, duplicate keys); jsonb normalises it
                return type.sourceType().equals("JSON") ? "JSON" : "JSONB";
            }
            case ColumnType.INTERVAL -> {
                return "INTERVAL";
            }
            case ColumnType.UUID -> {
                return "UUID";
            }
            default -> {
                // physical type below
            }
        }
        if (type.connectType().equals("string")) {
            // PostgreSQL source types carried as text whose own type keeps the same text
            switch (type.sourceType()) {
                case "BPCHAR" -> {
                    int n = type.sourceLength();
                    return n > 0 && n <= MAX_CHAR_LENGTH ? "CHAR(" + n + ")" : "BPCHAR";
                }
                case "VARCHAR" -> {
                    int n = type.sourceLength();
                    return n > 0 && n <= MAX_CHAR_LENGTH ? "VARCHAR(" + n + ")" : "VARCHAR";
                }
                case "INET" -> {
                    return "INET";
                }
                default -> {
                    // TEXT below
                }
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
    public String positionType() {
        return "TEXT COLLATE \"C\"";
    }

    @Override
    public Optional<String> alterColumnType(String table, String column, String type) {
        return Optional.of("ALTER TABLE " + quote(table) + " ALTER COLUMN " + quote(column) + " TYPE " + type);
    }

    /** With {@code USING "c"::type}: an explicit cast, so that also types without an assignment cast convert. */
    @Override
    public Optional<String> retypeColumn(String table, String column, String type) {
        return Optional.of("ALTER TABLE " + quote(table) + " ALTER COLUMN " + quote(column) + " TYPE " + type + " USING "
                + quote(column) + "::" + type);
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
    public Optional<SetWrites> setWrites() {
        return Optional.of(this);
    }

    @Override
    public Optional<String> missingPrivilegesQuery() {
        return Optional.of("SELECT p FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE']) AS p "
                + "WHERE NOT has_table_privilege(to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?)), p)");
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
                    .append(" = CAST(\"__d\".\"k").append(i + 1).append("\" AS ").append(PostgresLengths.castType(keyTypes.get(i))).append(')');
        }
        String p = "\"__t\"." + quote(positionColumn);
        return "DELETE FROM " + quote(table) + " AS \"__t\" USING unnest(" + arrays + "CAST(? AS text[])) AS \"__d\"(" + names
                + "\"p\") WHERE " + where + " AND (\"__d\".\"p\" IS NULL OR " + p + " IS NULL OR " + p + " <= \"__d\".\"p\" COLLATE \"C\")";
    }

    /**
     * Example: {@code INSERT INTO "orders" ("id", "amount", "__tidemark_position") SELECT CAST("__u"."v1" AS bigint),
     * CAST("__u"."v2" AS numeric(12,2)), CAST("__u"."v3" AS text) FROM unnest(CAST(? AS text[]), CAST(? AS text[]),
     * CAST(? AS text[])) AS "__u"("v1", "v2", "v3") ON CONFLICT …} with the conflict clause of {@link #upsert(String, List, List, List, String)}: one
     * statement and one bind per batch instead of one per row. A length-limited type is cast without its length
     * ({@link PostgresLengths#castType}): an explicit cast would cut a longer value silently, the insert refuses it.
     */
    @Override
    public String upsertMany(String table, List<String> columns, List<String> types, List<String> keyColumns,
                             List<String> updateColumns, String positionColumn) {
        StringBuilder select = new StringBuilder("SELECT ");
        StringBuilder arrays = new StringBuilder();
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            String sep = i == 0 ? "" : ", ";
            select.append(sep).append("CAST(\"__u\".\"v").append(i + 1).append("\" AS ").append(PostgresLengths.castType(types.get(i))).append(')');
            arrays.append(sep).append("CAST(? AS text[])");
            names.append(sep).append("\"v").append(i + 1).append('"');
        }
        String source = select + " FROM unnest(" + arrays + ") AS \"__u\"(" + names + ")";
        return OnConflictUpsert.sql(this::quote, table, columns, source, keyColumns, updateColumns, positionColumn);
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
                + "WHERE i.indrelid = to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?)) AND i.indisprimary "
                + "AND NOT c.collisdeterministic";
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, table);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    String fix = "ALTER TABLE " + quote(table) + " ALTER COLUMN " + quote(rs.getString(1)) + " TYPE " + rs.getString(3)
                            + " COLLATE \"C\"";
                    return Optional.of(MergingKeys.refusal(table, rs.getString(1), rs.getString(2),
                            "is nondeterministic (it compares distinct text as equal)", "run `" + fix + "` (byte-exact)"));
                }
            }
        }
        return Optional.empty();
    }

    /** Length-limited strings: see {@link PostgresLengths#fits}. */
    @Override
    public boolean fits(String element, String type) {
        return PostgresLengths.fits(element, type);
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

    // ---- source: metadata and reads

    @Override
    public Optional<Dialect> target() {
        return Optional.of(this);
    }

    @Override
    public String localNowSql() {
        return "SELECT LOCALTIMESTAMP";
    }

    @Override
    public Optional<String> sessionTimeZone(Connection c) throws SQLException {
        return Optional.of(SourceSql.queryOne(c, "SHOW TimeZone", rs -> rs.getString(1)));
    }

    @Override
    public boolean explainsPlans() {
        return true;
    }

    // ---- reconcile: key order, key predicates, reads

    @Override
    public ReadPath readPath() {
        return ReadPath.COPY_TEXT;
    }

    @Override
    public String orderTerm(String quotedColumn, ValueKind kind) {
        return kind == ValueKind.TEXT ? "CAST(" + quotedColumn + " AS text) COLLATE \"C\"" : quotedColumn;
    }

    /** A text parameter compares with a uuid, json or domain column only through a cast to the column's type. */
    @Override
    public String keyParameter(ValueKind kind, String declaredType) {
        if (kind != ValueKind.TEXT) {
            return "?";
        }
        String t = declaredType.toLowerCase(Locale.ROOT);
        if (t.equals("text") || t.equals("varchar") || t.equals("bpchar") || t.equals("name")) {
            return "?";
        }
        return "CAST(? AS " + quote(declaredType) + ")";
    }

    @Override
    public Object zonedKey(OffsetDateTime t) {
        return t;
    }

    @Override
    public long estimatedRows(Connection c, String quotedTable, String tableName) throws SQLException {
        return Queries.longOrMinusOne(c, "SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass(?)", quotedTable);
    }

    @Override
    public Optional<String> positionQuery() {
        return Optional.of("SELECT pg_current_wal_lsn()::text");
    }

    // ---- reconcile: checksums in SQL

    @Override
    public Optional<ChecksumSql> checksumSql() {
        return Optional.of(this);
    }

    @Override
    public String bucket(String keySql, long lo, long width) {
        return "(" + keySql + " - (" + lo + ")) / " + width;
    }

    @Override
    public String valueText(String c, ValueKind kind, SourceColumn column) {
        String declared = column.declaredType().toLowerCase(Locale.ROOT);
        return PostgresCanonicalText.of(c, kind, column.kind() == ColumnKind.ZONED, declared.equals("bool") || declared.equals("boolean"));
    }

    /** The first 60 bits of the row text's MD5, or {@code hashtextextended} when the other side is PostgreSQL too. */
    @Override
    public String sumOfRowHashes(List<String> valueTexts, Database otherSide) {
        String row = String.join(" || ", valueTexts.stream().map(v -> "COALESCE(length(" + v + ") || ':' || " + v + ", '~')").toList());
        if (otherSide instanceof PostgresDatabase) {
            return "sum(hashtextextended(" + row + ", 0))";
        }
        return "sum(('x' || substr(md5(" + row + "), 1, 15))::bit(60)::bigint)";
    }
}
