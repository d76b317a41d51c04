package dev.tidemark.cli;

import dev.tidemark.cli.observability.LastReconcile;
import dev.tidemark.cli.proof.PipelineRequests;
import dev.tidemark.jdbc.UsageException;
import dev.tidemark.connector.config.ConfigException;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.PipelineConfigParser;
import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.reconcile.ReconcileReport;
import dev.tidemark.reconcile.ReconcileRequest;
import dev.tidemark.reconcile.ReconcileResult;
import dev.tidemark.reconcile.Reconciler;
import dev.tidemark.reconcile.Repair;
import dev.tidemark.jdbc.Durations;
import dev.tidemark.event.TableId;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tidemark reconcile}: compares source and target tables by key and row checksum and reports missing, surplus
 * and changed keys; with {@code --repair}, plans (and with {@code --apply}, applies) the change events that make the
 * target equal. Exit codes: 0 equal (or repaired to equal), 1 differences, 2 bad usage or configuration (also a
 * repair refused for deleting too much), 3 runtime failure.
 */
@Command(name = "reconcile", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compare a source table with its target copy by primary key and row checksum (never by counts), "
                + "across engines: report missing, surplus and changed keys; optionally repair through the sink writer.",
                "Passwords come from TIDEMARK_SOURCE_PASSWORD and TIDEMARK_TARGET_PASSWORD (inline use) or the pipeline file.",
                "Example: tidemark reconcile --source jdbc:postgresql://db/shop --source-user app --target jdbc:sqlite:replica.db "
                        + "--table public.orders --key id --settle 5s",
                "Exit codes: 0 equal, 1 differences, 2 bad usage or configuration (or a repair refused), 3 runtime failure."})
final class ReconcileCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

    @Option(names = "--table", paramLabel = "T", description = "source table (schema.table, or table); with --config: only this one")
    String table;

    @Option(names = "--target-table", paramLabel = "NAME", description = "target table (default: with --config its target.tables entry, else the source table's name without its schema)")
    String targetTable;

    @Option(names = "--key", paramLabel = "K", split = ",", description = "key column(s) (default: the source's primary key)")
    List<String> key;

    @Option(names = "--exclude", paramLabel = "COL", split = ",", description = "source columns left out of the comparison and of repairs")
    List<String> exclude;

    @Option(names = "--settle", paramLabel = "D", defaultValue = "5s",
            description = "wait this long, then re-check keys found different; only those still different are reported (default: ${DEFAULT-VALUE})")
    String settle;

    @Option(names = "--json", paramLabel = "FILE|-", description = "write the full result, every listed key included, as JSON to FILE (or stdout)")
    String json;

    @Option(names = "--show", paramLabel = "N", defaultValue = "10", description = "keys shown per class in the text report (default: ${DEFAULT-VALUE})")
    int show;

    @Option(names = "--key-limit", paramLabel = "N", defaultValue = "100000",
            description = "most keys kept per class; counts stay exact beyond it (default: ${DEFAULT-VALUE})")
    int keyLimit;

    @Option(names = "--segment-rows", paramLabel = "N", defaultValue = "10000",
            description = "rows per segment compared row by row (default: ${DEFAULT-VALUE})")
    int segmentRows;

    @Mixin
    RepairOptions repairing = new RepairOptions();

    @Option(names = "--no-progress", description = "no progress bar on stderr (bars are drawn only on a terminal)")
    boolean noProgress;

    private final PrintStream out = System.out;
    private final PrintStream err = System.err;

    @Override
    public Integer call() throws Exception {
        List<String> problems = new ArrayList<>();
        Duration settleDuration = null;
        try {
            settleDuration = Durations.parse(settle);
        } catch (IllegalArgumentException e) {
            problems.add("Invalid value " + settle + " for --settle: " + e.getMessage());
        }
        double share = repairing.check(problems);
        if (show < 0 || keyLimit < 1 || segmentRows < 2) {
            problems.add("--show must be at least 0, --key-limit at least 1, --segment-rows at least 2");
        }
        List<ReconcileRequest> requests = connection.config != null ? fromFile(problems) : fromOptions(problems);
        if (!problems.isEmpty()) {
            throw new ConfigException("command line", problems);
        }
        boolean jsonToStdout = "-".equals(json);
        PrintStream report = jsonToStdout ? err : out;
        List<ReconcileResult> results = new ArrayList<>();
        boolean equal = true;
        for (ReconcileRequest base : requests) {
            ReconcileRequest request = base.withSettle(settleDuration).withSegmentRows(segmentRows).withKeyLimit(keyLimit)
                    .withProgress(Terminal.progress(noProgress, err));
            ReconcileResult r = Reconciler.reconcile(request);
            report.print(ReconcileReport.text(r, show));
            if (repairing.repair && !r.equal()) {
                r = repair(request, r, share, report);
            }
            results.add(r);
            equal &= r.equal();
        }
        if (json != null) {
            writeJson(results, jsonToStdout);
        }
        if (connection.config != null) {
            recordForEndpoint(results);
        }
        return equal ? ExitCodes.OK : ExitCodes.DIFFERENT;
    }

    private ReconcileResult repair(ReconcileRequest request, ReconcileResult r, double share, PrintStream report) throws SQLException {
        Repair.Plan plan = Repair.plan(r);
        report.println(plan.describe(show));
        if (!repairing.apply) {
            String refusal = plan.deleteShare() > share
                    ? String.format(Locale.ROOT, " (it would be refused: %.1f%% of the target's rows is more than --max-delete-share %.1f%%; add --force)",
                    plan.deleteShare() * 100, share * 100) : "";
            report.println("dry run: nothing changed; add --apply to apply" + refusal);
            return r;
        }
        Repair.Outcome done;
        try {
            done = Repair.apply(request, plan, share, repairing.force);
        } catch (Repair.RefusedException e) {
            throw new UsageException(e.getMessage(), e);
        }
        report.printf(Locale.ROOT, "repaired %s: %d upserted, %d deleted%s%s through the sink writer; reconciling again%n", r.targetTable(),
                done.upserted(), done.deleted(), done.vanished() > 0 ? ", " + done.vanished() + " keys no longer in the source skipped" : "",
                done.reappeared() > 0 ? ", " + done.reappeared() + " keys back in the source not deleted" : "");
        ReconcileResult after = Reconciler.reconcile(request);
        report.print(ReconcileReport.text(after, show));
        return after;
    }

    /** Keeps the counts where the pipeline's observability endpoint shows them ({@link LastReconcile}); never fails the run. */
    private void recordForEndpoint(List<ReconcileResult> results) {
        PipelineConfig cfg = PipelineConfigParser.parse(connection.config, System::getenv);
        try {
            LastReconcile.write(cfg, results.stream().map(r -> new LastReconcile.Table(r.table(), r.missingCount(), r.surplusCount(),
                    r.changedCount())).toList());
        } catch (IOException e) {
            err.println("tidemark: warning: cannot record the result in " + LastReconcile.file(cfg) + " for the status page: " + e.getMessage());
        }
    }

    private void writeJson(List<ReconcileResult> results, boolean toStdout) throws IOException {
        if (toStdout) {
            ReconcileReport.json(results, out);
            return;
        }
        try (OutputStream o = Files.newOutputStream(Path.of(json))) {
            ReconcileReport.json(results, o);
        }
    }

    private List<ReconcileRequest> fromOptions(List<String> problems) {
        connection.requireSource(problems);
        if (connection.target == null) {
            problems.add("Missing --target JDBC_URL");
        }
        if (table == null) {
            problems.add("Missing --table T");
        }
        if (!problems.isEmpty()) {
            return List.of();
        }
        TableId id = TableId.parse(table);
        ConnectionOptions c = connection;
        ReconcileRequest r = ReconcileRequest.of(ReconcileRequest.Endpoint.of(c.source, c.sourceUser, ConnectionOptions.sourcePassword()), id,
                ReconcileRequest.Endpoint.of(c.target, c.targetUser, ConnectionOptions.targetPassword()),
                targetTable != null ? targetTable : id.table());
        return List.of(refine(r));
    }

    private ReconcileRequest refine(ReconcileRequest r) {
        if (key != null) {
            r = r.withKeyColumns(key);
        }
        if (exclude != null) {
            Set<String> excluded = new HashSet<>(r.excludedColumns());
            excluded.addAll(exclude);
            r = r.withExcludedColumns(excluded);
        }
        return r;
    }

    private List<ReconcileRequest> fromFile(List<String> problems) {
        ConnectionOptions c = connection;
        problems.addAll(ConnectionOptions.notWithConfig(new Object[] {"--source", c.source}, new Object[] {"--target", c.target},
                new Object[] {"--source-user", c.sourceUser}, new Object[] {"--target-user", c.targetUser}));
        PipelineConfig cfg = PipelineConfigParser.parse(connection.config, System::getenv);
        List<ReconcileRequest> out = new ArrayList<>();
        for (TableId t : cfg.source().tables()) {
            if (table != null && !t.toString().equals(table) && !t.table().equals(table)) {
                continue;
            }
            out.add(refine(PipelineRequests.of(cfg, t, targetTable != null ? targetTable : cfg.targetTableFor(t))));
        }
        if (out.isEmpty()) {
            problems.add(table != null ? "no table " + table + " in source.tables of " + connection.config + " (" + cfg.source().tables() + ")"
                    : "no tables in " + connection.config);
        }
        if (targetTable != null && out.size() > 1) {
            problems.add("--target-table names one table: give --table too");
        }
        if (key != null && out.size() > 1) {
            problems.add("--key applies to one table: give --table too");
        }
        return out;
    }

    @Override
    public String toString() {
        return "reconcile " + UrlMask.mask(connection.source) + " → " + UrlMask.mask(connection.target);
    }
}
