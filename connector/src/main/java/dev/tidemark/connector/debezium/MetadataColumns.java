package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What capture does with columns of a captured table that carry the names of a Tidemark sink's own columns (pure).
 * When the table is known to be a Tidemark target (its schema's {@code tidemark_columns} lists it), its metadata
 * columns (those named {@code __tidemark_…} that {@code tidemark_columns} does not record as data columns) are left
 * out of capture: they belong to the pipeline writing the table, and this pipeline's sink adds its own. A table that
 * is not a known Tidemark target keeps every column; one whose column has the name this pipeline's sink would add
 * (its position column, or {@code __tidemark_deleted} with soft deletes) is refused, since both could not be written.
 */
final class MetadataColumns {
    static final String PREFIX = "__tidemark_";

    private MetadataColumns() {
    }

    /** The decision for one table. */
    sealed interface Decision {
        /** Capture every column as it is. */
        record Keep() implements Decision {
        }

        /** The table is a Tidemark target: leave these columns out (never empty). */
        record Exclude(List<String> columns) implements Decision {
        }

        /** Refuse the start with this one line. */
        record Refuse(String problem) implements Decision {
        }
    }

    /**
     * @param columns        the table's columns
     * @param recorded       the data columns {@code tidemark_columns} records for it; empty when it is no Tidemark target
     * @param excluded       the columns {@code source.excludeColumns} already leaves out
     * @param positionColumn this pipeline's {@code target.positionColumn}
     * @param softDeletes    whether this pipeline's sink adds {@code __tidemark_deleted}
     */
    static Decision decide(TableId table, List<String> columns, Set<String> recorded, Set<String> excluded, String positionColumn,
                           boolean softDeletes) {
        if (!recorded.isEmpty()) {
            List<String> metadata = columns.stream().filter(c -> c.startsWith(PREFIX) && !recorded.contains(c) && !excluded.contains(c))
                    .toList();
            return metadata.isEmpty() ? new Decision.Keep() : new Decision.Exclude(metadata);
        }
        Optional<String> clash = columns.stream().filter(c -> !excluded.contains(c))
                .filter(c -> c.equals(positionColumn) || softDeletes && c.equals(SinkOptions.DELETED_COLUMN)).findFirst();
        return clash.<Decision>map(c -> new Decision.Refuse("table " + table + " has a column \"" + c + "\", the name of a column the sink adds to "
                + "its target table, but is no Tidemark target (no " + table.schema() + "." + SinkOptions.COLUMNS_TABLE
                + " lists it), so both could not be written: leave it out with source.excludeColumns: [" + table + "." + c
                + "], or give the sink's column another name with target.positionColumn")).orElse(new Decision.Keep());
    }
}
