package dev.tidemark.connector.debezium;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Whether the source user may create event triggers: PostgreSQL (through 17) allows it to superusers only. The one
 * place capture asks; a privilege check elsewhere may call it too.
 */
public final class EventTriggerPrivilege {
    private EventTriggerPrivilege() {
    }

    /** True when the connection's user may create (and drop) event triggers. */
    public static boolean mayCreate(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")) {
            return rs.next() && rs.getBoolean(1);
        }
    }
}
