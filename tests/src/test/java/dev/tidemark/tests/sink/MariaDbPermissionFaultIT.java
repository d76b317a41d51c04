package dev.tidemark.tests.sink;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * MariaDB: a user with table-level privileges only (table privileges apply to open connections at their next
 * statement, database-level ones only after {@code USE}); {@code REVOKE ALL ON small} while the sink runs.
 */
class MariaDbPermissionFaultIT extends AbstractPermissionFaultIT {
    private static final String[] HOSTS = {"%", "localhost"};

    @Override
    TargetDatabase target() {
        return TargetDatabase.mariadb();
    }

    private static String db(Statement admin) throws Exception {
        try (var rs = admin.executeQuery("SELECT DATABASE()")) {
            rs.next();
            return "`" + rs.getString(1) + "`";
        }
    }

    @Override
    void createUserAndTable(Statement admin, String user) throws Exception {
        String db = db(admin);
        admin.execute("CREATE TABLE small (id BIGINT PRIMARY KEY, qty BIGINT, "
                + "`__tidemark_position` VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin)");
        for (String host : HOSTS) {
            String u = "'" + user + "'@'" + host + "'";
            admin.execute("CREATE USER " + u);
            for (String table : new String[] {"small", "tidemark_offsets", "tidemark_columns", "tidemark_table_positions"}) {
                admin.execute("GRANT ALL PRIVILEGES ON " + db + ".`" + table + "` TO " + u);
            }
        }
    }

    @Override
    void revoke(Statement admin, String user) throws Exception {
        String db = db(admin);
        for (String host : HOSTS) {
            admin.execute("REVOKE ALL PRIVILEGES ON " + db + ".`small` FROM '" + user + "'@'" + host + "'");
        }
    }

    @Override
    void grant(Statement admin, String user) throws Exception {
        String db = db(admin);
        for (String host : HOSTS) {
            admin.execute("GRANT ALL PRIVILEGES ON " + db + ".`small` TO '" + user + "'@'" + host + "'");
        }
    }

    @Override
    void dropUser(String user) throws Exception {
        String server = target.jdbcUrl().substring(0, target.jdbcUrl().lastIndexOf('/') + 1);
        try (Connection c = DriverManager.getConnection(server, target.properties()); Statement s = c.createStatement()) {
            for (String host : HOSTS) {
                s.execute("DROP USER IF EXISTS '" + user + "'@'" + host + "'");
            }
        }
    }
}
