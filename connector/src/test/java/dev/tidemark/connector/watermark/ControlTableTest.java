package dev.tidemark.connector.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.sink.event.TableId;
import dev.tidemark.sink.jdbc.SqliteDialect;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The control table keeps every kind of watermark exactly, and an unfinished window with its resume key. */
class ControlTableTest {
    @TempDir
    Path dir;

    @Test
    void everyKindOfWatermarkRoundTripsExactly() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("control.db"))) {
            c.setAutoCommit(false);
            ControlTable control = new ControlTable(c, new SqliteDialect());
            List<CursorValue> values = List.of(
                    CursorValue.of(new Mark.Zoned(Instant.parse("2024-05-01T10:00:00.123456789Z"))),
                    new CursorValue(new Mark.Local(LocalDateTime.parse("2013-12-22T00:00:00.000001")), 414L),
                    CursorValue.of(new Mark.Day(LocalDate.parse("2013-06-01"))),
                    CursorValue.of(new Mark.Number(9_007_199_254_740_993L)),
                    CursorValue.of(new Mark.Text("2013-12-22 00:00:00.5")));
            for (int i = 0; i < values.size(); i++) {
                CursorValue v = values.get(i);
                Cursor cursor = v.tieBreak() != null ? new Cursor.TimestampId("ts", "id")
                        : v.primary() instanceof Mark.Number ? new Cursor.Id("id") : new Cursor.Timestamp("ts");
                WatermarkTable t = WatermarkTable.of(new TableId("s", "t" + i), List.of("id"), cursor);
                control.ensure();
                control.complete(t, v).write(c, control.dialect());
                c.commit();
                ControlTable.State s = control.read(t.name()).orElseThrow();
                assertThat(s.watermark()).isEqualTo(v);
                assertThat(s.cursorKind()).isEqualTo(cursor.kind());
                assertThat(s.inProgress()).isNull();
                assertThat(control.roundTrip(v.primary())).as("the precision probe agrees").isEmpty();
            }
        }
    }

    @Test
    void anUnfinishedWindowIsKeptWithItsResumeKey() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("control.db"))) {
            c.setAutoCommit(false);
            ControlTable control = new ControlTable(c, new SqliteDialect());
            control.ensure();
            WatermarkTable t = WatermarkTable.of(new TableId("", "orders"), List.of("id"), new Cursor.TimestampId("ts", "id"));
            CursorValue old = new CursorValue(new Mark.Local(LocalDateTime.parse("2024-01-01T00:00")), 7L);
            Window w = Window.incremental(CursorValue.of(new Mark.Local(LocalDateTime.parse("2023-12-31T00:00"))),
                    new CursorValue(new Mark.Local(LocalDateTime.parse("2024-01-02T00:00")), 99L));
            control.progress(t, old, w, "[42]", 4000).write(c, control.dialect());
            c.commit();
            ControlTable.State s = control.read("orders").orElseThrow();
            assertThat(s.watermark()).isEqualTo(old);
            assertThat(s.inProgress()).isEqualTo(new ControlTable.InProgress(w, "[42]", 4000));
        }
    }
}
