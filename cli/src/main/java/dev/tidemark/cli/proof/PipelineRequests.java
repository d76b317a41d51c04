package dev.tidemark.cli.proof;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import dev.tidemark.reconcile.ReconcileRequest;

/**
 * The reconcile request of one table of a pipeline: the pipeline's source and target (with their credentials), the
 * target's position column, and the table's {@code source.excludeColumns} left out of the comparison (they never
 * reach the target). Shared by {@code tidemark reconcile --config} and the sidecar's scheduled reconcile.
 */
public final class PipelineRequests {
    private PipelineRequests() {
    }

    public static ReconcileRequest of(PipelineConfig cfg, TableId table, String targetTable) {
        return ReconcileRequest.of(
                        ReconcileRequest.Endpoint.of(cfg.source().jdbcUrl(), cfg.source().user(), cfg.source().password().reveal()), table,
                        ReconcileRequest.Endpoint.of(cfg.target().jdbcUrl(), cfg.target().user(), cfg.target().password().reveal()), targetTable)
                .withPositionColumn(cfg.target().positionColumn())
                .withExcludedColumns(cfg.source().excludedColumnsOf(table));
    }
}
