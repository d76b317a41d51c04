package dev.tidemark.connector.compare;

import dev.tidemark.connector.reconcile.ComparisonResult;
import dev.tidemark.connector.reconcile.TableComparison;
import dev.tidemark.sink.event.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Compares a source table with a target copy by primary key and row checksum: the one seam through which compare
 * reconciles. {@link #inMemory()} reads both tables whole ({@link TableComparison}); the scalable reconciler replaces
 * it in {@link CompareRun#CHECK}.
 */
@FunctionalInterface
public interface TableCheck {

    /** Missing, surplus and changed keys of {@code targetTable} (double-quoted identifiers) against {@code table}. */
    ComparisonResult compare(Connection source, TableId table, List<String> keyColumns, Connection target, String targetTable)
            throws SQLException;

    static TableCheck inMemory() {
        return (source, table, keys, target, targetTable) ->
                TableComparison.compare(source, table, keys, target, targetTable, TableComparison.QuoteStyle.DOUBLE);
    }
}
