package dev.tidemark.jdbc;

import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.sqlite.SqliteSource;
import dev.tidemark.jdbc.sqlite.SqliteTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * SQLite, whose date-times, decimals and booleans are text or integers by type affinity: the registry's engine for
 * {@code jdbc:sqlite:} URLs, made of its roles in {@code dev.tidemark.jdbc.sqlite}. It is its own target
 * ({@link SqliteTarget}); source and reconcile reads come from {@link SqliteSource}: rows stream as one text per row
 * ({@link ReadPath#ROW_TEXT}), reads run outside transactions, and there are no in-database checksums and no row
 * estimate. Stateless and thread-safe.
 */
public final class SqliteDatabase extends SqliteTarget implements Database {
    private static final SqliteSource SOURCE = new SqliteSource();

    @Override
    public Optional<Dialect> target() {
        return Optional.of(this);
    }

    @Override
    public SourceTable readTable(Connection c, TableId id) throws SQLException {
        return SOURCE.readTable(c, this, id);
    }

    @Override
    public boolean hasIndexStartingWith(Connection c, SourceTable table, String column) throws SQLException {
        return SOURCE.hasIndexStartingWith(c, this, table, column);
    }

    @Override
    public boolean temporalsAsText() {
        return true;
    }

    @Override
    public String nowExpression() {
        return SqliteSource.NOW;
    }

    @Override
    public String localNowSql() {
        return "SELECT " + SqliteSource.NOW;
    }

    @Override
    public Object read(ResultSet rs, int i, SourceColumn column) throws SQLException {
        return SOURCE.read(rs, i, column);
    }

    @Override
    public CursorValue readCursorValue(ResultSet rs, int i, ColumnKind kind) throws SQLException {
        return SOURCE.readCursorValue(rs, i, kind);
    }

    @Override
    public void bindValue(PreparedStatement ps, int i, Object v) throws SQLException {
        SOURCE.bindValue(ps, i, v);
    }

    @Override
    public ReadPath readPath() {
        return ReadPath.ROW_TEXT;
    }

    @Override
    public String orderTerm(String quotedColumn, ValueKind kind) {
        return SOURCE.orderTerm(quotedColumn, kind);
    }

    @Override
    public String keyTerm(String quotedColumn, ValueKind kind) {
        return SOURCE.keyTerm(quotedColumn, kind);
    }

    @Override
    public void bindKey(PreparedStatement ps, int i, ValueKind kind, String text) throws SQLException {
        SOURCE.bindKey(ps, i, kind, text);
    }

    @Override
    public boolean readsInTransaction() {
        return false;
    }
}
