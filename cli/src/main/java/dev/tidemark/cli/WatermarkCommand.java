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
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tidemark watermark}: poll tables by a watermark column, one-off from options or from a config file, once
 * or {@code --every} interval until SIGTERM (which finishes the chunk in flight, stores its progress and exits 0).
 * Exit codes: 0 done (warnings are printed but do not fail the run), 2 bad usage or configuration, 3 runtime failure.
 */
@Command(name = "watermark", mixinStandardHelpOptions = true, sortOptions = false, resourceBundle = "dev.tidemark.cli.WatermarkCommand",
        description = {"Copy rows changed since the last run, by a watermark column, from any JDBC source (SQLite, "
                + "PostgreSQL, MariaDB) into a JDBC target (or Kafka), storing the watermark per table only after the "
                + "window committed.",
                "Passwords come from TIDEMARK_SOURCE_PASSWORD, TIDEMARK_TARGET_PASSWORD, TIDEMARK_CONTROL_PASSWORD.",
                "Example: tidemark watermark --source jdbc:sqlite:chinook.db --target jdbc:sqlite:replica.db "
                        + "--table Invoice --key InvoiceId --cursor LastModified --overlap 1d"})
final class WatermarkCommand implements Callable<Integer> {
    private static final Logger log = LoggerFactory.getLogger(WatermarkCommand.class);

    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

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

    @Mixin
    WatermarkTableOptions tableOptions = new WatermarkTableOptions();

    @Mixin
    TumblingWindow window = new TumblingWindow();

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
        WatermarkConfigParser.Parsed parsed = connection.config != null ? fromFile() : fromOptions();
        Duration interval = every != null ? Durations.parse(every) : parsed.every();
        window.check(interval);
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
                if (table == null || connection.config == null || spec.table().equals(table)) {
                    tables.add(spec.resolve(src, parsed.source().url()));
                }
            }
        }
        if (tables.isEmpty()) {
            throw new ConfigException(String.valueOf(connection.config), List.of("no table " + table + " in tables"));
        }
        WatermarkConfig cfg = parsed.with(tables);
        log.info("{}", cfg.describe());
        Termination termination = Termination.install();
        try (WatermarkJob job = WatermarkJob.open(cfg, Terminal.progress(noProgress, err))) {
            WatermarkPoller.Request request = new WatermarkPoller.Request(window.start, window.end, probes, termination::isRequested);
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
        List<String> clash = ConnectionOptions.notWithConfig(new Object[] {"--source", connection.source},
                new Object[] {"--target", connection.target}, new Object[] {"--kafka", kafka}, new Object[] {"--control", control},
                new Object[] {"--cursor", tableOptions.cursor}, new Object[] {"--key", tableOptions.key});
        if (!clash.isEmpty()) {
            throw new ConfigException("command line", clash);
        }
        return WatermarkConfigParser.parse(connection.config, System::getenv);
    }

    private WatermarkConfigParser.Parsed fromOptions() {
        List<String> problems = new ArrayList<>();
        ConnectionOptions c = connection;
        c.requireSource(problems);
        if (c.target == null && kafka == null) {
            problems.add("Missing --target JDBC_URL (or --kafka BOOTSTRAP with --control JDBC_URL)");
        }
        if (kafka != null && c.target == null && control == null) {
            problems.add("Missing --control JDBC_URL: with --kafka the control table needs a database");
        }
        if (kafka == null && control != null) {
            problems.add("--control is for Kafka mode; in direct mode the control table lives in the target");
        }
        if (table == null) {
            problems.add("Missing --table T");
        }
        tableOptions.check(problems, every);
        if (!problems.isEmpty()) {
            throw new ConfigException("command line", problems);
        }
        WatermarkConfig.Endpoint src = new WatermarkConfig.Endpoint(c.source, c.sourceUser, Secret.of(ConnectionOptions.sourcePassword()));
        WatermarkConfig.Endpoint tgt = c.target == null ? null
                : new WatermarkConfig.Endpoint(c.target, c.targetUser, Secret.of(ConnectionOptions.targetPassword()));
        WatermarkConfig.Endpoint ctl = control == null ? null
                : new WatermarkConfig.Endpoint(control, controlUser, Secret.of(System.getenv("TIDEMARK_CONTROL_PASSWORD")));
        KafkaConfig k = kafka == null ? null : new KafkaConfig(kafka, topicPrefix == null ? name : topicPrefix, 1, (short) 1, Map.of());
        return new WatermarkConfigParser.Parsed(name, src, tgt, ctl, k, List.of(tableOptions.spec(table)), null);
    }
}
