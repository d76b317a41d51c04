package dev.tidemark.cli.observability;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Everything the status page shows, already masked (no secret reaches it: URLs pass {@code UrlMask}, passwords are
 * never read). Built by {@link ObservabilityServer} on each request; rendered by {@link StatusPage}.
 *
 * @param source   the source as {@code host:port (masked URL)}
 * @param target   the target likewise
 * @param problems probes that failed, with their reason
 */
public record StatusView(String pipeline, String command, String source, String target, String slot, Health health,
                         List<TableRow> tables, Map<String, PartitionLag> lags, OptionalLong walRetained,
                         List<WatermarkRuns.Run> watermarkRuns, Optional<LastReconcile.Result> reconcile,
                         Map<String, String> problems) {

    /** One captured table: events captured and applied by this process since it started. */
    public record TableRow(String table, String topic, long captured, long applied) {
    }
}
