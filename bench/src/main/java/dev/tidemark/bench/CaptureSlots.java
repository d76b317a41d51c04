package dev.tidemark.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The logical replication slots ({@code pgoutput}) of one capture-benchmark variant: one per contender and round,
 * named {@code <variant>_<contender>_<round>}, all created before the backlog is written so that every contender
 * decodes the same WAL, and dropped (those no longer active) when the variant is done.
 */
record CaptureSlots(Map<CaptureContender, List<String>> byContender) {

    static CaptureSlots create(Connection c, String variant, List<CaptureContender> contenders, int rounds) throws SQLException {
        Map<CaptureContender, List<String>> slots = new LinkedHashMap<>();
        try (PreparedStatement create = c.prepareStatement("SELECT pg_create_logical_replication_slot(?, 'pgoutput')")) {
            for (CaptureContender ct : contenders) {
                List<String> names = new ArrayList<>();
                for (int r = 1; r <= rounds; r++) {
                    String slot = (variant + "_" + ct.id + "_" + r).replace('-', '_');
                    create.setString(1, slot);
                    create.execute();
                    names.add(slot);
                }
                slots.put(ct, names);
            }
        }
        return new CaptureSlots(slots);
    }

    /** The slots of {@code contender}, round 1 first. */
    List<String> of(CaptureContender contender) {
        return byContender.get(contender);
    }

    void drop(Connection c) throws SQLException {
        try (PreparedStatement drop = c.prepareStatement(
                "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ? AND NOT active")) {
            for (List<String> names : byContender.values()) {
                for (String slot : names) {
                    drop.setString(1, slot);
                    drop.execute();
                }
            }
        }
    }
}
