package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.event.RowSchema;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.PartitionOffset;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Another writer holds the SQLite file locked past the busy timeout: the sink retries until the lock goes. */
class SqliteBusyIT {
    static final TableId T = new TableId("public", "items");

    @Test
    void retriesWhileTheFileIsLockedThenApplies() throws Exception {
        try (TargetDatabase target = TargetDatabase.sqlite();
             JdbcChangeSink sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults("busy"))) {
            RowSchema s = SinkEvents.wide("id");
            sink.apply(List.of(SinkEvents.upsert(T, s, 1, "a", 1)), List.of(new PartitionOffset("tp", 0, 1)));
            CompletableFuture<Void> second;
            try (Connection locker = target.connect(); Statement st = locker.createStatement()) {
                st.execute("BEGIN EXCLUSIVE");
                second = CompletableFuture.runAsync(() -> sink.apply(List.of(SinkEvents.upsert(T, s, 2, "b", 2)),
                        List.of(new PartitionOffset("tp", 0, 2))));
                await("the sink retried against the lock").atMost(Duration.ofSeconds(60)).until(() -> sink.retries() > 0);
                assertThat(second).isNotDone();
                st.execute("COMMIT");
            }
            second.get();
            try (Connection c = target.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM items")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(2);
            }
            assertThat(sink.storedOffsets()).isEqualTo(Map.of("tp", Map.of(0, 2L)));
        }
    }
}
