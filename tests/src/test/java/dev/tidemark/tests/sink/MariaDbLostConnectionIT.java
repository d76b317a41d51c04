package dev.tidemark.tests.sink;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

class MariaDbLostConnectionIT extends AbstractLostConnectionIT {
    @Override
    TargetDatabase target() {
        return TargetDatabase.mariadb();
    }

    @Override
    int killSinkSessions(Connection admin) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT id FROM information_schema.processlist WHERE db = DATABASE() AND id <> CONNECTION_ID()")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        try (Statement s = admin.createStatement()) {
            for (long id : ids) {
                s.execute("KILL CONNECTION " + id);
            }
        }
        return ids.size();
    }
}
