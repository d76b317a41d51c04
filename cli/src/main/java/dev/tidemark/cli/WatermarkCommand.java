package dev.tidemark.cli;

import dev.tidemark.connector.config.ConfigException;
import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.jdbc.Durations;
import dev.tidemark.jdbc.JdbcEndpoints;
import dev.tidemark.connector.watermark.RunResult;
import dev.tidemark.connector.watermark.TableSpec;
import dev.tidemark.connector.watermark.WatermarkConfig;
import dev.tidemark.connector.watermark.WatermarkConfigParser;
import dev.tidemark.connector.watermark.WatermarkJob;
import dev.tidemark.connector.watermark.WatermarkPoller;
import dev.tidemark.connector.watermark.WatermarkTable;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tidemark watermark}: poll tables by a watermark column, one-off from options or from a config file, once
 * or {@code --every} interval until SIGTERM (which finishes the chunk in flight, stores its progress and exits 0).
 * Exit codes: 0 done (warnings are printed but do not fail the run), 2 bad usage or configuration, 3 runtime failure.
 */
@Command(name = "watermark", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Copy rows changed since the last run, by a watermark column, from any JDBC source (SQLite, "
                + "PostgreSQL, MariaDB) into a JDBC target (or Kafka), storing the watermark per table only after the "
                + "window committed.",
                "Passwords come from TIDEMARK_SOURCE_PASSWORD, TIDEMARK_TARGET_PASSWORD, TIDEMARK_CONTROL_PASSWORD.",
                "Example: tidemark watermark --source jdbc:sqlite:chinook.db --target jdbc:sqlite:replica.db "
                        + "--table Invoice --key InvoiceId --cursor LastModified --overlap 1d"})
final class WatermarkCommand implements Callable<Integer> {
    private static final Logger log = LoggerFactory.getLogger(WatermarkCommand.class);

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "watermark pipeline YAML (instead of the options below)")
    Path config;

    @Option(names = "--source", paramLabel = "JDBC_URL", description = "source database")
    String source;

    @Option(names = "--source-user", paramLabel = "USER")
    String sourceUser;

    @Option(names = "--target", paramLabel = "JDBC_URL", description = "target database (direct mode; also holds the control table)")
    String target;

    @Option(names = "--target-user", paramLabel = "USER")
    String targetUser;

    @Option(names = "--kafka", paramLabel = "BOOTSTRAP", description = "produce change events to Kafka instead of writing the target")
    String kafka;

    @Option(names = "--topic-prefix", paramLabel = "PREFIX", description = "topics are PREFIX.<schema>.<table> (default: --name)")
    String topicPrefix;

    @Option(names = "--control", paramLabel = "JDBC_URL", description = "Kafka mode: database for the control table (default: --target)")
    String control;

    @Option(names = "--control-user", paramLabel = "USER")
    String controlUser;

    @Option(names = "--name", defaultValue = "watermark", description = "pipeline name (default: ${DEFAULT-VALUE})")
    String name;

    @Option(names = "--table", paramLabel = "T", description = "source table (schema.table or table); with --config: run only this one")
    String table;

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

    @Option(names = "--window-start", paramLabel = "V", description = "tumbling window start (inclusive); no stored state")
    String windowStart;

    @Option(names = "--window-end", paramLabel = "V", description = "tumbling window end (exclusive)")
    String windowEnd;

    @Option(names = "--every", paramLabel = "D", description = "keep running: one run of every table each D (1h, 15m)")
    String every;

    @Option(names = "--probes", description = "run the safety probes on every run, not only the first")
    boolean probes;

    @Option(names = "--no-progress", description = "no progress bar on first loads (bars are drawn only on a terminal)")
    boolean noProgress;

    private final PrintStream out = System.out;
    private final PrintStream err = System.err;

    @Override
    public Integer call() throws Exception {
        WatermarkConfigParser.Parsed parsed = config != null ? fromFile() : fromOptions();
        Duration interval = every != null ? Durations.parse(every) : parsed.every();
        if ((windowStart == null) != (windowEnd == null)) {
            throw new ConfigException("command line", List.of("--window-start and --window-end go together"));
        }
        if (windowStart != null && interval != null) {
            throw new ConfigException("command line", List.of("a tumbling window (--window-start/--window-end) runs once; drop --every"));
        }
        // every check that needs no database first: a wrong URL must not create or change anything
        JdbcEndpoints.check(JdbcEndpoints.Side.SOURCE, parsed.source().url());
        if (parsed.target() != null) {
            JdbcEndpoints.check(JdbcEndpoints.Side.TARGET, parsed.target().url());
        }
        if (parsed.control() != null) {
            JdbcEndpoints.check(JdbcEndpoints.Side.CONTROL, parsed.control().url());
        }
        List<WatermarkTable> tables = new ArrayList<>();
        try (Connection src = JdbcEndpoints.open(JdbcEndpoints.Side.SOURCE, parsed.source().url(), parsed.source().properties())) {
            for (TableSpec spec : parsed.tables()) {
                if (table == null || config == null || spec.table().equals(table)) {
                    tables.add(spec.resolve(src, parsed.source().url()));
                }
            }
        }
        if (tables.isEmpty()) {
            throw new ConfigException(String.valueOf(config), List.of("no table " + table + " in tables"));
        }
        WatermarkConfig cfg = parsed.with(tables);
        log.info("{}", cfg.describe());
        Termination termination = Termination.install();
        try (WatermarkJob job = WatermarkJob.open(cfg, Terminal.progress(noProgress, err))) {
            WatermarkPoller.Request request = new WatermarkPoller.Request(windowStart, windowEnd, probes, termination::isRequested);
            while (true) {
                for (RunResult r : job.runAll(request)) {
                    r.warnings().forEach(w -> err.println("tidemark: " + w));
                    out.println(r.summary());
                }
                if (interval == null || termination.isRequested() || termination.awaitRequest(interval.toMillis())) {
                    return ExitCodes.OK;
                }
            }
        }
    }

    private WatermarkConfigParser.Parsed fromFile() {
        List<String> clash = new ArrayList<>();
        for (Object[] o : Arrays.asList(new Object[] {"--source", source}, new Object[] {"--target", target},
                new Object[] {"--kafka", kafka}, new Object[] {"--control", control}, new Object[] {"--cursor", cursor},
                new Object[] {"--key", key})) {
            if (o[1] != null) {
                clash.add(o[0] + " cannot be combined with --config (the file says it)");
            }
        }
        if (!clash.isEmpty()) {
            throw new ConfigException("command line", clash);
        }
        return WatermarkConfigParser.parse(config, System::getenv);
    }

    private WatermarkConfigParser.Parsed fromOptions() {
        List<String> problems = new ArrayList<>();
        if (source == null) {
            problems.add("Missing --source JDBC_URL (or give --config FILE)");
        }
        if (target == null && kafka == null) {
            problems.add("Missing --target JDBC_URL (or --kafka BOOTSTRAP with --control JDBC_URL)");
        }
        if (kafka != null && target == null && control == null) {
            problems.add("Missing --control JDBC_URL: with --kafka the control table needs a database");
        }
        if (kafka == null && control != null) {
            problems.add("--control is for Kafka mode; in direct mode the control table lives in the target");
        }
        if (table == null) {
            problems.add("Missing --table T");
        }
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
        if (!problems.isEmpty()) {
            throw new ConfigException("command line", problems);
        }
        Map<String, String> env = System.getenv();
        WatermarkConfig.Endpoint src = new WatermarkConfig.Endpoint(source, sourceUser, Secret.of(env.get("TIDEMARK_SOURCE_PASSWORD")));
        WatermarkConfig.Endpoint tgt = target == null ? null
                : new WatermarkConfig.Endpoint(target, targetUser, Secret.of(env.get("TIDEMARK_TARGET_PASSWORD")));
        WatermarkConfig.Endpoint ctl = control == null ? null
                : new WatermarkConfig.Endpoint(control, controlUser, Secret.of(env.get("TIDEMARK_CONTROL_PASSWORD")));
        KafkaConfig k = kafka == null ? null : new KafkaConfig(kafka, topicPrefix == null ? name : topicPrefix, 1, (short) 1, Map.of());
        TableSpec spec = new TableSpec(table, key, cursor, cursorKind, overlap, settle, softDelete, chunkSize);
        return new WatermarkConfigParser.Parsed(name, src, tgt, ctl, k, List.of(spec), null);
    }
}
