package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;
import java.util.Optional;

/**
 * What a captured table's replica identity other than {@code FULL} means while capture runs. Pure.
 *
 * <p>Under {@code DEFAULT}, {@code USING INDEX} or {@code NOTHING} PostgreSQL logs no whole old row: an update that
 * changes the primary key then arrives as a delete and an insert whose unchanged TOASTed values are missing (Debezium's
 * placeholder), and the target would keep NULL there. So capture stops with one line once a captured table (or a
 * member of a captured partitioned table) no longer has {@code FULL}: the start sets it back when
 * {@code source.setReplicaIdentityFull} allows it (else the line names the {@code ALTER TABLE}), and the table's
 * re-snapshot ({@code tidemark snapshot --table}, taken at that start) rewrites what arrived meanwhile and removes the
 * target rows the source no longer holds.
 */
final class IdentityDrift {
    private IdentityDrift() {
    }

    /** The one line to stop with when {@code table}'s identity is {@code now} (a {@code relreplident} letter), else empty. */
    static Optional<String> stop(TableId table, char now, boolean setFull, String config) {
        if (now == 'f') {
            return Optional.empty();
        }
        String file = config == null ? "FILE" : config;
        String alter = "ALTER TABLE " + SourcePreflight.quote(table.schema()) + "." + SourcePreflight.quote(table.table())
                + " REPLICA IDENTITY FULL";
        String snapshot = "copy the table again with `tidemark snapshot --config " + file + " --table " + table + "` (taken at the next "
                + "start of capture" + (setFull ? ", which sets REPLICA IDENTITY FULL back" : "");
        return Optional.of("capture stopped: table " + table + " has REPLICA IDENTITY " + name(now) + " instead of FULL while "
                + "capture runs, so an update of its primary key can lose unchanged TOASTed values in the target: "
                + (setFull ? "" : "run " + alter + ", then ") + snapshot + "; the snapshot rewrites the table's rows and removes the "
                + "target rows the source no longer holds)");
    }

    static String name(char identity) {
        return switch (identity) {
            case 'd' -> "DEFAULT";
            case 'n' -> "NOTHING";
            case 'i' -> "USING INDEX";
            case 'f' -> "FULL";
            default -> "'" + identity + "'";
        };
    }
}
