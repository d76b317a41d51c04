package dev.tidemark.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** A database a benchmark connects to: its JDBC URL and the connection properties (user) that go with it. */
record JdbcEndpoint(String url, Properties props) {

    /** {@code url} with only {@code user} set, or no properties at all when {@code user} is null. */
    static JdbcEndpoint of(String url, String user) {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        return new JdbcEndpoint(url, p);
    }

    /** A new connection; the caller closes it. */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, props);
    }
}
