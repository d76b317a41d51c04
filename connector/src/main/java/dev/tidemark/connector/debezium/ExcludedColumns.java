package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.event.TableId;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks {@code source.excludeColumns} against a captured table as it is (pure): every excluded column must exist
 * (a misspelt name would leave the column captured while the user believes it is not), and no primary-key column may
 * be excluded (the sink applies changes by key). One line per problem, naming the configuration entry.
 */
final class ExcludedColumns {
    private ExcludedColumns() {
    }

    static List<String> problems(SourceConfig source, TableId table, List<CapturedColumn> columns, List<String> primaryKey) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < source.excludeColumns().size(); i++) {
            SourceConfig.ColumnId excluded = source.excludeColumns().get(i);
            if (!excluded.table().equals(table)) {
                continue;
            }
            String entry = "source.excludeColumns[" + i + "] " + excluded;
            if (columns.stream().noneMatch(c -> c.column().equals(excluded.column()))) {
                out.add(entry + ": table " + table + " has no column \"" + excluded.column() + "\" (its columns: "
                        + columns.stream().map(CapturedColumn::column).toList() + ")");
            } else if (primaryKey.contains(excluded.column())) {
                out.add(entry + ": \"" + excluded.column() + "\" is part of the primary key of " + table
                        + ", which the sink applies changes by; remove it from source.excludeColumns");
            }
        }
        return out;
    }
}
