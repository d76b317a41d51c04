package dev.tidemark.jdbc;

import dev.tidemark.event.ColumnType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * MariaDB (and MySQL URLs): backtick quoting, sessions in UTC.
 *
 * <p>As a target, sessions run with {@code time_zone='+00:00'}; zoned timestamps are stored as {@code DATETIME(6)}
 * in UTC (MariaDB's {@code TIMESTAMP} ends in 2038). Key columns are sized by {@link MariaDbKeyLayout} (text keys
 * {@code VARCHAR} in a binary collation, the whole key within InnoDB's limit), other text {@code LONGTEXT}, all of it
 * {@code utf8mb4_nopad_bin} (byte-exact); a pre-existing table whose key collation would merge keys is refused
 * ({@link #mergingKeyCollation}). Sessions
 * are strict ({@code STRICT_ALL_TABLES}): a value that does not fit is refused, never cut. DDL commits implicitly on MariaDB; the sink runs DDL before the data
 * transaction, never inside it.
 *
 * <p>Upserts use {@code ON DUPLICATE KEY UPDATE}, which has no {@code WHERE}: each assignment is guarded by the
 * position comparison instead, and the position column is assigned last, because MariaDB evaluates assignments
 * left to right and later ones see earlier results.

 *
 * <p>As a source, DATETIME and TIMESTAMP are read as session wall-clock time, and JDBC metadata takes the database
 * as the catalog. Reconcile sorts text keys by their UTF-8 bytes, binds zoned key values as UTC wall-clock time in
 * a UTC session, reads through streamed result sets, and computes segment checksums in SQL ({@code MD5}).
 */
public final class MariaDbDatabase implements Database, Dialect, ChecksumSql {
    private static final int MAX_KEY_CHARS = 768; // utf8mb4: 3072-byte index limit
    /** Text outside keys: byte-exact too, so comparisons and any index on it never merge distinct values. */
    static final String TEXT_TYPE = "LONGTEXT " + MariaDbKeyLayout.TEXT_KEY_CHARSET;

    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    public String quote(String identifier) {
        return Identifiers.backticked(identifier);
    }

    @Override
    public void configure(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("SET SESSION time_zone = '+00:00'");
            // a value too long for its column is refused, never cut (a cut key would merge distinct rows)
            s.execute("SET SESSION sql_mode = IF(@@SESSION.sql_mode = '', 'STRICT_ALL_TABLES', "
                    + "CONCAT(@@SESSION.sql_mode, ',STRICT_ALL_TABLES'))");
        }
    }

    @Override
    public String columnType(ColumnType type, boolean key) {
        String logical = type.logicalName() == null ? "" : type.logicalName();
        switch (logical) {
            case ColumnType.DECIMAL -> {
                int p = type.precision();
                int s = Math.max(type.scale(), 0);
                if (p > 0 && p <= 65 && s <= 38 && p >= s) {
                    return "DECIMAL(" + p + "," + s + ")";
                }
                return "DECIMAL(65," + Math.min(Math.max(s, 30), 38) + ")";
            }
            case ColumnType.VARIABLE_SCALE_DECIMAL -> {
                return "DECIMAL(65,30)";
            }
            case ColumnType.ZONED_TIMESTAMP, ColumnType.TIMESTAMP_MICROS, ColumnType.TIMESTAMP_NANOS -> {
                return "DATETIME(6)";
            }
            case ColumnType.TIMESTAMP_MILLIS, ColumnType.CONNECT_TIMESTAMP -> {
                return "DATETIME(3)";
            }
            case ColumnType.DATE, ColumnType.CONNECT_DATE -> {
                return "DATE";
            }
            case ColumnType.TIME_MILLIS, ColumnType.TIME_MICROS, ColumnType.TIME_NANOS -> {
                return "TIME(6)";
            }
            case ColumnType.JSON -> {
                return key ? "VARCHAR(" + MAX_KEY_CHARS + ") " + MariaDbKeyLayout.TEXT_KEY_CHARSET : "JSON";
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
            case "int32" -> "INT";
            case "int64" -> "BIGINT";
            case "float", "float32" -> "FLOAT";
            case "double", "float64" -> "DOUBLE";
            case "boolean" -> "BOOLEAN";
            case "bytes" -> key ? "VARBINARY(" + MAX_KEY_CHARS + ")" : "LONGBLOB";
            default -> key ? "VARCHAR(" + keyLength(type) + ") " + MariaDbKeyLayout.TEXT_KEY_CHARSET : TEXT_TYPE;
        };
    }

    /** Sized to fit InnoDB's key limit whole, binary text keys: see {@link MariaDbKeyLayout}. */
    @Override
    public java.util.Map<String, String> keyColumnTypes(String table, dev.tidemark.event.RowSchema schema) {
        return MariaDbKeyLayout.layout(table, schema, t -> columnType(t, false));
    }

    private static int keyLength(ColumnType type) {
        String len = type.parameters().get("__debezium.source.column.length");
        try {
            int n = len == null ? MAX_KEY_CHARS : Integer.parseInt(len);
            return n > 0 && n <= MAX_KEY_CHARS ? n : MAX_KEY_CHARS;
        } catch (NumberFormatException e) {
            return MAX_KEY_CHARS;
        }
    }

    /** Key columns of a pre-existing table whose collation is not byte-exact: see {@link MariaDbCollations}. */
    @Override
    public Optional<String> mergingKeyCollation(Connection connection, String table) throws SQLException {
        String sql = "SELECT c.column_name, c.collation_name, c.column_type FROM information_schema.columns c "
                + "JOIN information_schema.key_column_usage k ON k.table_schema = c.table_schema AND k.table_name = c.table_name "
                + "AND k.column_name = c.column_name AND k.constraint_name = 'PRIMARY' "
                + "WHERE c.table_schema = DATABASE() AND c.table_name = ? AND c.collation_name IS NOT NULL ORDER BY k.ordinal_position";
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, table);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Optional<String> refusal = MariaDbCollations.refusal(table, rs.getString(1), rs.getString(2), rs.getString(3));
                    if (refusal.isPresent()) {
                        return refusal;
                    }
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public String textType() {
        return "VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin"; // Tidemark's own keys (topics, table names) are case-sensitive
    }

    @Override
    public String positionType() {
        return "VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin";
    }

    @Override
    public Optional<String> alterColumnType(String table, String column, String type) {
        return Optional.of("ALTER TABLE " + quote(table) + " MODIFY COLUMN " + quote(column) + " " + type);
    }

    /**
     * Example: {@code INSERT INTO `orders` (`id`, `amount`, `__tidemark_position`) VALUES (?, ?, ?)
     * ON DUPLICATE KEY UPDATE `amount` = IF(g, VALUES(`amount`), `amount`), `__tidemark_position` = IF(g, …)}
     * with {@code g = `__tidemark_position` IS NULL OR VALUES(`__tidemark_position`) IS NULL OR
     * `__tidemark_position` <= VALUES(`__tidemark_position`)}.
     */
    @Override
    public String upsert(String table, List<String> columns, List<String> keyColumns, List<String> updateColumns, String positionColumn) {
        String cols = columns.stream().map(this::quote).collect(Collectors.joining(", "));
        String params = columns.stream().map(c -> "?").collect(Collectors.joining(", "));
        String insert = "INSERT INTO " + quote(table) + " (" + cols + ") VALUES (" + params + ")";
        if (updateColumns.isEmpty()) {
            return "INSERT IGNORE" + insert.substring("INSERT".length());
        }
        List<String> ordered = new java.util.ArrayList<>(updateColumns);
        if (positionColumn != null && ordered.remove(positionColumn)) {
            ordered.add(positionColumn);
        }
        String sets;
        if (positionColumn == null) {
            sets = ordered.stream().map(c -> quote(c) + " = VALUES(" + quote(c) + ")").collect(Collectors.joining(", "));
        } else {
            String p = quote(positionColumn);
            String guard = "(" + p + " IS NULL OR VALUES(" + p + ") IS NULL OR " + p + " <= VALUES(" + p + "))";
            sets = ordered.stream().map(c -> quote(c) + " = IF(" + guard + ", VALUES(" + quote(c) + "), " + quote(c) + ")")
                    .collect(Collectors.joining(", "));
        }
        return insert + " ON DUPLICATE KEY UPDATE " + sets;
    }

    @Override
    public String columnsQuery() {
        return "SELECT column_name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? "
                + "ORDER BY ordinal_position";
    }

    @Override
    public void bind(PreparedStatement statement, int index, Object value, ColumnType type) throws SQLException {
        Binding.bindNative(statement, index, value, i -> LocalDateTime.ofInstant(i, ZoneOffset.UTC));
    }

    @Override
    public String constantsFrom() {
        return " FROM DUAL";
    }

    // ---- source: metadata and reads

    @Override
    public Optional<Dialect> target() {
        return Optional.of(this);
    }

    @Override
    public boolean catalogIsSchema() {
        return true;
    }

    @Override
    public String localNowSql() {
        return "SELECT NOW(6)";
    }

    @Override
    public Optional<String> sessionTimeZone(Connection c) throws SQLException {
        return Optional.of(SourceSql.queryOne(c, "SELECT CONCAT(@@session.time_zone, ' (system ', @@system_time_zone, ')')", rs -> rs.getString(1)));
    }

    // ---- reconcile: key order, key predicates, reads

    @Override
    public String orderTerm(String quotedColumn, ValueKind kind) {
        return kind == ValueKind.TEXT ? "CAST(CONVERT(" + quotedColumn + " USING utf8mb4) AS BINARY)" : quotedColumn;
    }

    /** Date-times are compared in UTC, as the sink stores them. */
    @Override
    public void configureReadSession(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION time_zone = '+00:00'");
        }
    }

    @Override
    public long estimatedRows(Connection c, String quotedTable, String tableName) throws SQLException {
        return Queries.longOrMinusOne(c, "SELECT table_rows FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?",
                tableName);
    }

    // ---- reconcile: checksums in SQL

    @Override
    public Optional<ChecksumSql> checksumSql() {
        return Optional.of(this);
    }

    @Override
    public String bucket(String keySql, long lo, long width) {
        return "(" + keySql + " - (" + lo + ")) DIV " + width;
    }

    @Override
    public String valueText(String c, ValueKind kind, SourceColumn column) {
        return MariaDbCanonicalText.of(c, kind);
    }

    /** The first 60 bits of the row text's MD5, whatever the other side. */
    @Override
    public String sumOfRowHashes(List<String> valueTexts, Database otherSide) {
        String row = "CONVERT(CONCAT(" + String.join(", ", valueTexts.stream()
                .map(v -> "COALESCE(CONCAT(CHAR_LENGTH(" + v + "), ':', " + v + "), '~')").toList()) + ") USING utf8mb4)";
        return "SUM(CAST(CONV(SUBSTR(MD5(" + row + "), 1, 15), 16, 10) AS UNSIGNED))";
    }
}
