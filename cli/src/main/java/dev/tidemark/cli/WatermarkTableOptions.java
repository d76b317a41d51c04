package dev.tidemark.cli;

import dev.tidemark.connector.watermark.TableSpec;
import dev.tidemark.jdbc.Durations;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * How {@code watermark} polls the one table named inline: key, cursor, overlap, settle, soft-delete column and chunk
 * size, the command-line form of a {@code tables} entry of the watermark file ({@link TableSpec}).
 */
final class WatermarkTableOptions {
    @Option(names = "--key", paramLabel = "K", split = ",", description = "key column(s) (default: the primary key)")
    List<String> key;

    @Option(names = "--cursor", paramLabel = "C", split = ",", description = "watermark column, or TIMESTAMP,ID for a tie-broken cursor")
    List<String> cursor;

    @Option(names = "--cursor-kind", paramLabel = "KIND", description = "timestamp | id | timestamp+id (default: from the column)")
    String cursorKind;

    @Option(names = "--overlap", paramLabel = "D", description = "re-read this far below the watermark (1d, 90m; ids for an id cursor); default 0")
    String overlap;

    @Option(names = "--settle", paramLabel = "D", description = "keep the upper bound this far behind the database clock; default 5s")
    String settle;

    @Option(names = "--soft-delete", paramLabel = "COL", description = "deleted-flag column: flagged rows become deletes")
    String softDelete;

    @Option(names = "--chunk-size", paramLabel = "N", description = "rows per read and per target transaction; default 10000")
    Integer chunkSize;

    /**
     * Adds a line to problems for a missing cursor, a bad duration or chunk size; {@code every} (the command's
     * {@code --every}, null when not given) is checked with the durations so the lines follow the options' order.
     */
    void check(List<String> problems, String every) {
        if (cursor == null || cursor.isEmpty()) {
            problems.add("Missing --cursor C (or --cursor TIMESTAMP,ID)");
        }
        for (String[] d : new String[][] {{"--overlap", overlap}, {"--settle", settle}, {"--every", every}}) {
            if (d[1] != null && !(d[0].equals("--overlap") && d[1].matches("\\d+"))) {
                try {
                    Durations.parse(d[1]);
                } catch (IllegalArgumentException e) {
                    problems.add("Invalid value " + d[1] + " for " + d[0] + ": " + e.getMessage());
                }
            }
        }
        if (chunkSize != null && chunkSize < 1) {
            problems.add("Invalid value " + chunkSize + " for --chunk-size: must be at least 1");
        }
    }

    TableSpec spec(String table) {
        return new TableSpec(table, key, cursor, cursorKind, overlap, settle, softDelete, chunkSize);
    }
}
