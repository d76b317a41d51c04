package dev.tidemark.sink.jdbc;

import dev.tidemark.jdbc.Dialect;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Writes that must commit atomically with a batch of changes, run inside the sink's transaction just before it
 * commits (for example the watermark control-table row of the window the batch carries). Must not commit, roll
 * back or close the connection.
 */
@FunctionalInterface
public interface SideWrite {
    SideWrite NONE = (connection, dialect) -> { };

    void write(Connection connection, Dialect dialect) throws SQLException;
}
