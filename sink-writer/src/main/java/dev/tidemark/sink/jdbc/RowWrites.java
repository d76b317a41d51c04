package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.Dialect;
import java.sql.Connection;

/**
 * What the row writers ({@link RowUpserts}, {@link RowDeletes}) of one sink connection share: the connection, the
 * engine's dialect, the sink's options, the target tables and the connection's prepared statements. Made anew on
 * every (re)connect, so a writer never outlives its connection.
 */
record RowWrites(Connection connection, Dialect dialect, SinkOptions options, TargetTables tables, StatementCache statements) {
}
