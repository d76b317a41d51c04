package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.UsageException;
import dev.tidemark.jdbc.Durations;

import dev.tidemark.jdbc.ColumnKind;
import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.SourceTable;

import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * A table's watermark settings as written in a config file or on the command line, before the source is asked
 * about its columns: {@link #resolve} infers the cursor kind when it is not given (two columns → timestamp+id; an
 * integer column → id; otherwise timestamp) and reads the overlap as a duration or, for id cursors, a count.
 *
 * @param key null or empty = the source's primary key
 * @param kind null = inferred
 * @param overlap null = none; {@code 1d}, {@code 90m}, … or a whole number of ids
 * @param settle null = 5 s for timestamp cursors
 * @param chunkSize null = 10,000
 */
public record TableSpec(String table, List<String> key, List<String> cursor, String kind, String overlap, String settle,
                        String softDelete, Integer chunkSize) {
    public TableSpec {
        key = key == null ? List.of() : List.copyOf(key);
        cursor = cursor == null ? List.of() : List.copyOf(cursor);
    }

    /** Resolves the settings against the source's metadata; errors name the table and the setting. */
    public WatermarkTable resolve(Connection source, String sourceUrl) throws SQLException {
        TableId id = TableId.parse(table);
        if (cursor.isEmpty()) {
            throw new UsageException("table " + table + ": no cursor column given");
        }
        String k = kind;
        if (k == null && cursor.size() == 1) {
            SourceTable src = SourceTable.describe(source, Databases.forUrl(sourceUrl), id);
            k = src.require(cursor.get(0), "cursor").kind() == ColumnKind.INTEGER ? "id" : "timestamp";
        }
        Cursor c = Cursor.of(k, cursor);
        Duration overlapDuration = Duration.ZERO;
        long idOverlap = 0;
        if (overlap != null && !overlap.isBlank()) {
            if (c instanceof Cursor.Id) {
                try {
                    idOverlap = Long.parseLong(overlap.trim());
                } catch (NumberFormatException e) {
                    throw new UsageException("table " + table + ": overlap '" + overlap
                            + "' must be a number of ids for an id cursor");
                }
            } else {
                overlapDuration = Durations.parse(overlap);
            }
        }
        Duration settleDuration = settle == null ? WatermarkTable.DEFAULT_SETTLE : Durations.parse(settle);
        if (c instanceof Cursor.Id) {
            settleDuration = Duration.ZERO;
        }
        return new WatermarkTable(id, key, c, overlapDuration, idOverlap, settleDuration,
                softDelete == null || softDelete.isBlank() ? null : softDelete,
                chunkSize == null ? WatermarkTable.DEFAULT_CHUNK : chunkSize);
    }
}
