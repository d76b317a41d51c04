package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.UsageException;
import dev.tidemark.jdbc.Durations;

import dev.tidemark.event.TableId;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The watermark settings of one source table (one entry of the control table).
 *
 * @param table            the source table; its name without schema is the target table's name
 * @param keyColumns       the key the target is upserted by and chunks are paged by; empty = the source's primary key
 * @param cursor           the column(s) windows are bounded by
 * @param overlap          timestamp cursors: re-read this far below the stored watermark (harmless: writes are
 *                         upserts) to catch rows that became visible late; default 0
 * @param idOverlap        id cursors: re-read this many ids below the stored watermark; default 0
 * @param settle           timestamp cursors: never move the upper bound closer than this to the database clock, so
 *                         rows of transactions still in flight are not stepped over; default 5 s
 * @param softDeleteColumn a deleted-flag column: rows where it is true (or non-zero) become delete events; null = none
 * @param chunkSize        rows per read and per target transaction; default 10,000
 */
public record WatermarkTable(TableId table, List<String> keyColumns, Cursor cursor, Duration overlap, long idOverlap,
                             Duration settle, String softDeleteColumn, int chunkSize) {
    public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(5);
    public static final int DEFAULT_CHUNK = 10_000;

    public WatermarkTable {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(cursor, "cursor");
        keyColumns = List.copyOf(keyColumns);
        overlap = overlap == null ? Duration.ZERO : overlap;
        settle = settle == null ? DEFAULT_SETTLE : settle;
        if (overlap.isNegative() || settle.isNegative() || idOverlap < 0) {
            throw new UsageException("table " + table + ": overlap and settle delay must not be negative");
        }
        if (chunkSize < 1) {
            throw new UsageException("table " + table + ": chunk size must be at least 1 but is " + chunkSize);
        }
        if (cursor instanceof Cursor.Id && !overlap.isZero()) {
            throw new UsageException("table " + table + ": an id cursor's overlap is a count of ids, not "
                    + Durations.format(overlap));
        }
    }

    /** Settings with the defaults: no overlap, 5 s settle delay, no soft deletes, chunks of 10,000. */
    public static WatermarkTable of(TableId table, List<String> keyColumns, Cursor cursor) {
        return new WatermarkTable(table, keyColumns, cursor, Duration.ZERO, 0, DEFAULT_SETTLE, null, DEFAULT_CHUNK);
    }

    public WatermarkTable withOverlap(Duration d) {
        return new WatermarkTable(table, keyColumns, cursor, d, idOverlap, settle, softDeleteColumn, chunkSize);
    }

    public WatermarkTable withIdOverlap(long n) {
        return new WatermarkTable(table, keyColumns, cursor, overlap, n, settle, softDeleteColumn, chunkSize);
    }

    public WatermarkTable withSettle(Duration d) {
        return new WatermarkTable(table, keyColumns, cursor, overlap, idOverlap, d, softDeleteColumn, chunkSize);
    }

    public WatermarkTable withSoftDelete(String column) {
        return new WatermarkTable(table, keyColumns, cursor, overlap, idOverlap, settle, column, chunkSize);
    }

    public WatermarkTable withChunkSize(int n) {
        return new WatermarkTable(table, keyColumns, cursor, overlap, idOverlap, settle, softDeleteColumn, n);
    }

    /** The control table's key for this table: {@code schema.table} as given. */
    public String name() {
        return table.toString();
    }
}
