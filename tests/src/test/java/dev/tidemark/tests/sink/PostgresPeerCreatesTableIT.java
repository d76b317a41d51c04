package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Databases;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.PartitionOffset;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.jdbc.TargetConnection;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two sinks of one pipeline (a consumer group's two tasks, one partition each) write a table neither has created yet.
 * One reads the catalog, finds no table, and before it goes on the other creates the table and commits its rows: the
 * first must then write into that table, not stop with a privilege fault ("exists, but the sink's user cannot read its
 * columns"), as DebeziumOnConnectIT's two Connect tasks once did. The interleaving is made exact by running the second
 * sink's batch right after the first sink's catalog read, on the machine's PostgreSQL (a real server).
 */
class PostgresPeerCreatesTableIT {
    private static final TableId T = new TableId("public", "accounts");
    private static final TableId OTHER = new TableId("public", "warmup");
    private static final RowSchema S = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false),
            new Column("qty", ColumnType.of("int64"), true)), List.of("id"));
    private TargetDatabase target;
    private long lsn = 1;

    @BeforeEach
    void setUp() {
        target = TargetDatabase.postgres();
    }

    @AfterEach
    void tearDown() throws Exception {
        target.close();
    }

    @Test
    void aSinkWritesIntoTheTableItsPeerCreatedAfterItsCatalogRead() throws Exception {
        String pipeline = "peer-" + System.nanoTime();
        AtomicBoolean armed = new AtomicBoolean();
        try (JdbcChangeSink peer = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults(pipeline))) {
            peer.apply(rows(OTHER, 100, 100), List.of(new PartitionOffset("t", 1, 1))); // Tidemark's own tables exist now
            Connection raw = target.connect();
            String columnsQuery = Databases.targetForUrl(target.jdbcUrl()).columnsQuery();
            Runnable peerCreates = () -> peer.apply(rows(T, 1, 5), List.of(new PartitionOffset("t", 1, 6)));
            Connection interleaved = afterCatalogRead(raw, columnsQuery, armed, peerCreates);
            try (JdbcChangeSink sink = new JdbcChangeSink(new TargetConnection.Borrowed(interleaved),
                    Databases.targetForUrl(target.jdbcUrl()), SinkOptions.defaults(pipeline))) {
                armed.set(true);
                sink.apply(rows(T, 6, 10), List.of(new PartitionOffset("t", 0, 5)));
            } finally {
                raw.close();
            }
        }
        assertThat(armed).as("the peer's batch ran between the catalog read and the write").isFalse();
        assertThat(count()).isEqualTo(10);
    }

    private List<ChangeEvent> rows(TableId table, long from, long to) {
        return java.util.stream.LongStream.rangeClosed(from, to).<ChangeEvent>mapToObj(id -> new ChangeEvent.Upsert(table,
                Map.of("id", id), S, Map.of("id", id, "qty", id * 10), new SourcePosition.Lsn(lsn++), ChangeEvent.Op.CREATE)).toList();
    }

    private long count() throws Exception {
        try (Connection c = target.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM \"accounts\"")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** {@code connection}, running {@code peer} once (when armed) right after a read of the catalog that found no table {@link #T}. */
    private static Connection afterCatalogRead(Connection connection, String columnsQuery, AtomicBoolean armed, Runnable peer) {
        InvocationHandler statements = (proxy, method, args) -> {
            Object result = invoke(connection, method, args);
            if (method.getName().equals("prepareStatement") && columnsQuery.equals(args[0])) {
                return wrap((PreparedStatement) result, armed, peer);
            }
            return result;
        };
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, statements);
    }

    private static PreparedStatement wrap(PreparedStatement statement, AtomicBoolean armed, Runnable peer) {
        AtomicBoolean ofTheTable = new AtomicBoolean();
        InvocationHandler reads = (proxy, method, args) -> {
            Object result = invoke(statement, method, args);
            if (method.getName().equals("setString")) {
                ofTheTable.set(T.table().equals(args[1]));
            }
            if (method.getName().equals("executeQuery") && ofTheTable.get() && armed.get()) {
                ResultSet rs = (ResultSet) result;
                if (!rs.isBeforeFirst() && armed.compareAndSet(true, false)) {
                    peer.run(); // the catalog showed no table; the peer creates it and commits now
                }
            }
            return result;
        };
        return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(), new Class<?>[] {PreparedStatement.class}, reads);
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
