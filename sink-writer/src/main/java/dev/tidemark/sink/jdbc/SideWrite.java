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

    /** The table this write goes to, named in the one-line message when it fails (e.g. the disk is full). */
    default String table() {
        return "the batch's side write";
    }

    /** {@code write}, naming {@code table} as the table it goes to. */
    static SideWrite on(String table, SideWrite write) {
        return new SideWrite() {
            @Override
            public void write(Connection connection, Dialect dialect) throws SQLException {
                write.write(connection, dialect);
            }

            @Override
            public String table() {
                return table;
            }
        };
    }
}
