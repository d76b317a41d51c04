package dev.tidemark.sink.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.jdbc.SinkException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failing side write (the disk filled up while the control-table row was written) is named by its table. */
class SideWriteFailureTest {
    @TempDir
    Path dir;

    @Test
    void aDiskFullSideWriteNamesItsTable() throws SQLException {
        try (JdbcChangeSink sink = JdbcChangeSink.open("jdbc:sqlite:" + dir.resolve("t.db"), new Properties(), SinkOptions.defaults("p1"))) {
            SideWrite full = SideWrite.on("tidemark_watermarks", (c, d) -> {
                throw new SQLException("[SQLITE_FULL] Insertion failed because database is full (database or disk is full)", null, 13);
            });
            assertThatThrownBy(() -> sink.apply(List.of(), List.of(new PartitionOffset("t", 0, 1)), full))
                    .isInstanceOf(SinkException.class)
                    .hasMessageContaining("tidemark_watermarks")
                    .hasMessageNotContaining("(side write)");
        }
    }
}
