package dev.tidemark.compare;

import dev.tidemark.reconcile.ComparisonResult;
import dev.tidemark.reconcile.ReconcileRequest;
import dev.tidemark.reconcile.Reconciler;
import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * Compares a source table with a target copy by primary key and row checksum: the one seam through which compare
 * reconciles ({@link CompareRun#CHECK}).
 */
@FunctionalInterface
public interface TableCheck {

    /** Missing, surplus and changed keys of {@code targetTable} against {@code table}. */
    ComparisonResult compare(Connection source, TableId table, List<String> keyColumns, Connection target, String targetTable)
            throws SQLException;

    /**
     * The reconciler ({@link Reconciler}: segmented checksums, then row-by-row merges of mismatching segments) on the
     * caller's connections, re-checking differences at once: compare only asks once the source is quiet.
     */
    static TableCheck reconciler() {
        return (source, table, keys, target, targetTable) -> Reconciler.reconcile(
                ReconcileRequest.of(ReconcileRequest.Endpoint.of(source), table, ReconcileRequest.Endpoint.of(target), targetTable)
                        .withKeyColumns(keys)
                        .withSettle(Duration.ZERO))
                .toComparisonResult();
    }
}
