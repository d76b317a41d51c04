package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.UsageException;

import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.SourceSql;
import dev.tidemark.jdbc.JdbcEndpoints;
import dev.tidemark.jdbc.Dialect;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The connections and parts of one watermark pipeline, opened once and reused for every run: the source, the
 * delivery (a {@link JdbcChangeSink} on the target, or a Kafka producer), and a connection to the database holding
 * the control and run-history tables (in direct mode: the target). {@link #close()} closes everything it opened.
 */
public final class WatermarkJob implements AutoCloseable {
    private final WatermarkConfig config;
    private final Connection source;
    private final Connection controlConnection;
    private final Delivery delivery;
    private final ControlTable control;
    private final RunHistory history;
    private final WatermarkPoller poller;

    private WatermarkJob(WatermarkConfig config, Connection source, Connection controlConnection, Delivery delivery,
                         ControlTable control, RunHistory history, WatermarkPoller poller) {
        this.config = config;
        this.source = source;
        this.controlConnection = controlConnection;
        this.delivery = delivery;
        this.control = control;
        this.history = history;
        this.poller = poller;
    }

    /** Opens every connection; on failure closes what was opened and throws naming the endpoint. */
    public static WatermarkJob open(WatermarkConfig config, PrintStream progressOut) throws SQLException {
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            Connection source = connect(JdbcEndpoints.Side.SOURCE, config.source());
            opened.add(source);
            source.setAutoCommit(true);
            // every table's checks (key, cursor column and its values' shapes) before the target or control database is
            // opened: a refused table must not leave an empty target file or control tables behind
            SourceSql sql = Databases.forUrl(config.source().url());
            for (WatermarkTable t : config.tables()) {
                PolledTable.describe(source, sql, t);
            }
            WatermarkConfig.Endpoint store = config.controlStore();
            if (store == null) {
                throw new UsageException("watermark pipeline " + config.name()
                        + ": give a target (or, with Kafka, a control database) to keep the control table in");
            }
            Dialect dialect = Databases.targetForUrl(store.url());
            Connection controlConnection = connect(config.direct() ? JdbcEndpoints.Side.TARGET : JdbcEndpoints.Side.CONTROL, store);
            opened.add(controlConnection);
            dialect.configure(controlConnection);
            controlConnection.setAutoCommit(false);
            Delivery delivery;
            TargetPositions lateness = null;
            if (config.direct()) {
                JdbcChangeSink sink = JdbcChangeSink.open(config.target().url(), config.target().properties(),
                        SinkOptions.defaults(config.name()));
                delivery = new DirectDelivery(sink);
                lateness = new TargetPositions(controlConnection, dialect, SinkOptions.DEFAULT_POSITION_COLUMN);
            } else {
                delivery = new KafkaDelivery(config.kafka().bootstrapServers(), config.kafka().properties(),
                        config.kafka().topicPrefix(), databaseName(config.source().url()), config.kafka().partitions(),
                        config.kafka().replicationFactor(), controlConnection, dialect);
            }
            opened.add(delivery);
            ControlTable control = new ControlTable(controlConnection, dialect);
            control.ensure();
            RunHistory history = new RunHistory(controlConnection, dialect);
            history.ensure();
            WatermarkPoller poller = new WatermarkPoller(source, config.source().url(), control, history, delivery, lateness, progressOut);
            return new WatermarkJob(config, source, controlConnection, delivery, control, history, poller);
        } catch (SQLException | RuntimeException e) {
            for (AutoCloseable c : opened) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // already failing
                }
            }
            throw e;
        }
    }

    private static Connection connect(JdbcEndpoints.Side side, WatermarkConfig.Endpoint e) throws SQLException {
        return JdbcEndpoints.open(side, e.url(), e.properties());
    }

    /** The database name in a JDBC URL, for {@code source.db}: the path's last segment, or the SQLite file name. */
    static String databaseName(String url) {
        String s = url.replaceFirst("^jdbc:[a-z0-9]+:", "");
        int q = s.indexOf('?');
        s = q < 0 ? s : s.substring(0, q);
        int slash = s.lastIndexOf('/');
        return slash < 0 ? s : s.substring(slash + 1);
    }

    public WatermarkConfig config() {
        return config;
    }

    public ControlTable control() {
        return control;
    }

    public RunHistory history() {
        return history;
    }

    /** One run of one table. */
    public RunResult run(WatermarkTable table, WatermarkPoller.Request request) throws Exception {
        return poller.run(table, request);
    }

    /** One run of every configured table, in order; stops early when the request's stop signal is raised. */
    public List<RunResult> runAll(WatermarkPoller.Request request) throws Exception {
        List<RunResult> out = new ArrayList<>();
        for (WatermarkTable t : config.tables()) {
            if (!out.isEmpty() && request.stop().getAsBoolean()) {
                break;
            }
            out.add(poller.run(t, request));
        }
        return out;
    }

    @Override
    public void close() {
        delivery.close();
        try {
            controlConnection.close();
        } catch (SQLException ignored) {
            // closing anyway
        }
        try {
            source.close();
        } catch (SQLException ignored) {
            // closing anyway
        }
    }
}
