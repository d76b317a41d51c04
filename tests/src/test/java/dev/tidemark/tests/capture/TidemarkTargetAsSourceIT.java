package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A Tidemark target used as another pipeline's source (issue 21, item 1): pipeline A captures {@code S.public.orders}
 * into the PostgreSQL database X; pipeline B captures A's target table {@code X.public.orders} into a SQLite file.
 * B leaves out Tidemark's metadata columns (X's {@code tidemark_columns} lists the table) and says so in one INFO
 * line, so B's target holds the data columns and B's own position column once, snapshot and streaming alike.
 */
class TidemarkTargetAsSourceIT {
    private static final TableId ORDERS = new TableId("public", "orders");

    @TempDir
    Path dir;

    @Test
    void aPipelineCapturesAnotherPipelinesTargetWithoutItsMetadataColumns() throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        String s = TestInfrastructure.newDatabase("chain_s");
        String x = TestInfrastructure.newDatabase("chain_x");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(lines);
        try (Connection source = pg.connect(s); Connection middle = pg.connect(x)) {
            sql(source, "CREATE TABLE public.orders (id int PRIMARY KEY, note text)",
                    "INSERT INTO public.orders VALUES (1, 'one'), (2, 'two'), (3, 'three')");
            try (Sidecar a = Sidecar.start(config(s, pg.jdbcUrl(s), pg.jdbcUrl(x), pg.user()), true, true, new ReplayFrom.Stored())) {
                awaitRows("A's target " + x, () -> rows(middle, "SELECT id, note FROM public.orders ORDER BY id"), 3, a);
                String sqlite = "jdbc:sqlite:" + dir.resolve("b.db");
                try (Sidecar b = Sidecar.start(config(x, pg.jdbcUrl(x), sqlite, null), true, true, new ReplayFrom.Stored());
                     Connection target = DriverManager.getConnection(sqlite)) {
                    awaitRows("B's target b.db (snapshot)", () -> rows(target, "SELECT id, note FROM orders ORDER BY id"), 3, b);
                    sql(source, "INSERT INTO public.orders VALUES (4, 'four')", "UPDATE public.orders SET note = 'uno' WHERE id = 1");
                    await("B's target has the change streamed through A").atMost(Duration.ofSeconds(90))
                            .failFast("a pipeline failed", () -> a.failure().isPresent() || b.failure().isPresent())
                            .until(() -> rows(target, "SELECT id, note FROM orders ORDER BY id"),
                                    r -> r.equals(List.of("1|uno", "2|two", "3|three", "4|four")));
                    assertThat(rows(target, "SELECT name FROM pragma_table_info('orders') ORDER BY cid"))
                            .as("B's target: the data columns and B's own position column, once")
                            .containsExactly("id", "note", SinkOptions.DEFAULT_POSITION_COLUMN);
                    assertThat(b.failure()).isEmpty();
                }
            }
        } finally {
            root.detachAppender(lines);
        }
        List<String> info = lines.list.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains("is a Tidemark target")).toList();
        assertThat(info).as("one INFO line saying the metadata columns are left out").hasSize(1);
        assertThat(info.get(0)).contains("public.orders", SinkOptions.DEFAULT_POSITION_COLUMN, "not captured");
        dropSlot(pg, s);
        dropSlot(pg, x);
    }

    private PipelineConfig config(String name, String sourceUrl, String targetUrl, String targetUser) {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        return new PipelineConfig(name,
                new SourceConfig(sourceUrl, pg.user(), Secret.of(pg.password()), "slot_" + name, "pub_" + name, List.of(ORDERS), true,
                        Duration.ofMillis(10)),
                new KafkaConfig(TestInfrastructure.kafkaBootstrap(), name, 1, (short) 1, Map.of()),
                new TargetConfig(targetUrl, targetUser, targetUser == null ? Secret.empty() : Secret.of(pg.password()), 500,
                        SinkOptions.DEFAULT_POSITION_COLUMN, false),
                dir.resolve("state-" + name));
    }

    @FunctionalInterface
    private interface Rows {
        List<String> read() throws SQLException;
    }

    private static void awaitRows(String what, Rows rows, int count, Sidecar sidecar) {
        await(what + " holds " + count + " rows").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .failFast("pipeline failed: " + sidecar.failure().map(Throwable::getMessage).orElse(""), () -> sidecar.failure().isPresent())
                .until(() -> {
                    try {
                        return rows.read().size() == count;
                    } catch (SQLException e) {
                        return false; // table not created yet
                    }
                });
    }

    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(b.toString());
            }
        }
        return out;
    }

    private static void sql(Connection c, String... statements) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String q : statements) {
                st.execute(q);
            }
        }
    }

    private static void dropSlot(TestInfrastructure.PgServer pg, String name) throws SQLException {
        try (Connection c = pg.connect("postgres"); Statement st = c.createStatement()) {
            st.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = 'slot_" + name + "' AND NOT active");
        }
    }
}
