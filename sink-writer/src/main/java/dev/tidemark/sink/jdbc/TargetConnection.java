package dev.tidemark.sink.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Properties;

/**
 * Who owns the connection a {@link JdbcChangeSink} writes through.
 *
 * <ul>
 *   <li>{@link Owned}: the sink opens the connection from a URL, opens a new one after the old one was lost, and
 *       closes it when the sink is closed.</li>
 *   <li>{@link Borrowed}: the caller's connection. The sink uses it (it sets auto-commit off and the dialect's session
 *       settings, and commits and rolls back its own transactions on it) but never closes it and never replaces it:
 *       after a lost connection the sink retries on the same one, and the caller restores and closes it.</li>
 * </ul>
 */
public sealed interface TargetConnection permits TargetConnection.Owned, TargetConnection.Borrowed {

    /** The connection to write through: a new one for {@link Owned}, always the same one for {@link Borrowed}. */
    Connection open() throws SQLException;

    /** Whether the sink may replace a lost connection with a new one from {@link #open()}. */
    boolean reconnects();

    /** Releases {@code connection} when the sink is done with it: closes it only when the sink owns it. */
    void release(Connection connection) throws SQLException;

    /** A connection the sink opens from {@code url} with {@code properties} (copied), and closes itself. */
    record Owned(String url, Properties properties) implements TargetConnection {
        public Owned {
            Objects.requireNonNull(url, "url");
            Properties copy = new Properties();
            copy.putAll(properties);
            properties = copy;
        }

        @Override
        public Connection open() throws SQLException {
            return DriverManager.getConnection(url, properties);
        }

        @Override
        public boolean reconnects() {
            return true;
        }

        @Override
        public void release(Connection connection) throws SQLException {
            connection.close();
        }

        /** Names neither URL nor properties: both can hold credentials. */
        @Override
        public String toString() {
            return "Owned[connection opened by the sink]";
        }
    }

    /** The caller's connection: used, never closed nor replaced by the sink. */
    record Borrowed(Connection connection) implements TargetConnection {
        public Borrowed {
            Objects.requireNonNull(connection, "connection");
        }

        @Override
        public Connection open() {
            return connection;
        }

        @Override
        public boolean reconnects() {
            return false;
        }

        @Override
        public void release(Connection connection) {
            // the caller's: it closes it
        }
    }
}
