package dev.tidemark.sink.jdbc;

import dev.tidemark.sink.event.ColumnType;
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
        return '"' + identifier.replace("\"", "\"\"") + '"';
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

    @Override
    public String columnsQuery() {
        return "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? "
                + "ORDER BY ordinal_position";
    }

    @Override
    public void bind(PreparedStatement statement, int index, Object value, ColumnType type) throws SQLException {
        Binding.bindNative(statement, index, value, i -> i.atOffset(ZoneOffset.UTC));
    }
}
