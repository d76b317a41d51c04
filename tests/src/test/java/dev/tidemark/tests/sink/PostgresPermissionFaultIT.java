package dev.tidemark.tests.sink;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/** PostgreSQL: a non-superuser role; {@code REVOKE ALL ON TABLE small} while the sink runs. */
class PostgresPermissionFaultIT extends AbstractPermissionFaultIT {
    @Override
    TargetDatabase target() {
        return TargetDatabase.postgres();
    }

    @Override
    void createUserAndTable(Statement admin, String user) throws Exception {
        admin.execute("CREATE ROLE " + user + " LOGIN NOSUPERUSER");
        admin.execute("GRANT USAGE, CREATE ON SCHEMA public TO " + user);
        // the table exists before the sink (created by the DBA), the sink's role may write it
        admin.execute("CREATE TABLE small (id BIGINT PRIMARY KEY, qty BIGINT, \"__tidemark_position\" TEXT COLLATE \"C\")");
        admin.execute("GRANT ALL ON TABLE small TO " + user);
    }

    @Override
    void revoke(Statement admin, String user) throws Exception {
        admin.execute("REVOKE ALL ON TABLE small FROM " + user);
    }

    @Override
    void grant(Statement admin, String user) throws Exception {
        admin.execute("GRANT ALL ON TABLE small TO " + user);
    }

    @Override
    void dropUser(String user) throws Exception {
        // the role owned objects in the test database only, which is dropped by now
        String server = target.jdbcUrl().substring(0, target.jdbcUrl().lastIndexOf('/') + 1);
        try (Connection c = DriverManager.getConnection(server + "postgres", target.properties()); Statement s = c.createStatement()) {
            s.execute("DROP ROLE IF EXISTS " + user);
        }
    }
}
