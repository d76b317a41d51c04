package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.reconcile.CanonicalValues;
import dev.tidemark.jdbc.ValueKind;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.PartitionOffset;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The server drops the sink's connection between two batches (as on a restart or failover): the next batch fails
 * with a connection error, the sink reconnects after a backoff and applies it; nothing is lost or doubled.
 */
abstract class AbstractLostConnectionIT {
    static final TableId T = new TableId("public", "items");
    TargetDatabase target;
    JdbcChangeSink sink;

    abstract TargetDatabase target() throws Exception;

    /** Kills every server session on the test database except the caller's. */
    abstract int killSinkSessions(Connection admin) throws Exception;

    @BeforeEach
    void open() throws Exception {
        target = target();
        sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults("lost"));
    }

    @AfterEach
    void close() throws Exception {
        sink.close();
        target.close();
    }

    @Test
    void reconnectsAndAppliesTheBatchOnce() throws Exception {
        RowSchema s = SinkEvents.wide("id");
        sink.apply(List.of(SinkEvents.upsert(T, s, 1, "a", 1)), List.of(new PartitionOffset("tp", 0, 1)));
        try (Connection admin = target.connect()) {
            assertThat(killSinkSessions(admin)).as("sessions killed").isPositive();
        }
        sink.apply(List.of(SinkEvents.upsert(T, s, 2, "b", 2), SinkEvents.delete(T, s, 1, 3)), List.of(new PartitionOffset("tp", 0, 3)));
        assertThat(sink.retries()).isPositive();
        assertThat(sink.storedOffsets()).isEqualTo(Map.of("tp", Map.of(0, 3L)));
        List<String> ids = new ArrayList<>();
        try (Connection c = target.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT " + target.quotes().quote("id") + " FROM " + target.quotes().quote("items"))) {
            while (rs.next()) {
                ids.add(CanonicalValues.read(rs, 1, ValueKind.INTEGER));
            }
        }
        assertThat(ids).containsExactly("2");
    }
}
