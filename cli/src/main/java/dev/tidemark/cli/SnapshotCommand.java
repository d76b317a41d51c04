package dev.tidemark.cli;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.debezium.TableSnapshotRequest;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.UsageException;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tidemark snapshot --config F --table T [--table …]}: snapshots just those tables into the pipeline while the
 * others stream, and afterwards removes the target rows the snapshot no longer holds
 * ({@link TableSnapshotRequest}). Exit 0 once requested (a running pipeline starts at once, a stopped one at its next
 * start, which the output says); 2 for a table the pipeline does not capture; 3 when capture never started.
 */
@Command(name = "snapshot", mixinStandardHelpOptions = true,
        description = "Snapshot the named tables again into the pipeline while the other tables stream; when a table's snapshot "
                + "ends, its target rows the snapshot no longer holds are removed. Talks to the running pipeline through its "
                + "signal table on the source (public.tidemark_signal_<slot>); a stopped pipeline snapshots at its next start.")
final class SnapshotCommand extends PipelineFileCommand {
    @Option(names = "--table", required = true, paramLabel = "SCHEMA.TABLE", description = "a captured table (repeatable)")
    List<String> tables;

    @Override
    int call(PipelineConfig cfg) {
        List<TableId> ids = new ArrayList<>();
        for (String t : tables) {
            if (!t.contains(".")) {
                throw new UsageException("--table " + t + ": name the table as schema.table (e.g. public." + t + ")");
            }
            ids.add(TableId.parse(t));
        }
        TableSnapshotRequest.Outcome out = TableSnapshotRequest.request(cfg, ids, config.toString());
        if (out.running()) {
            System.out.println("pipeline " + cfg.name() + ": snapshot " + out.id() + " of " + out.tables() + " requested; the running "
                    + "capture takes it while the other tables stream, and removes target rows it no longer holds when it ends");
        } else {
            System.out.println("pipeline " + cfg.name() + " is not running: snapshot " + out.id() + " of " + out.tables()
                    + " requested; it is taken at the next start (tidemark run --config " + config + ")");
        }
        return ExitCodes.OK;
    }
}
