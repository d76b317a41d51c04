package dev.tidemark.tests.sink;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

class PostgresLostConnectionIT extends AbstractLostConnectionIT {
    @Override
    TargetDatabase target() {
        return TargetDatabase.postgres();
    }

    @Override
    int killSinkSessions(Connection admin) throws Exception {
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
