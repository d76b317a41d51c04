package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.CursorValue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.SqliteDatabase;
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
            ControlTable control = new ControlTable(c, new SqliteDatabase());
            List<Watermark> values = List.of(
                    Watermark.of(new CursorValue.Zoned(Instant.parse("2024-05-01T10:00:00.123456789Z"))),
                    new Watermark(new CursorValue.Local(LocalDateTime.parse("2013-12-22T00:00:00.000001")), 414L),
                    Watermark.of(new CursorValue.Day(LocalDate.parse("2013-06-01"))),
                    Watermark.of(new CursorValue.Number(9_007_199_254_740_993L)),
                    Watermark.of(new CursorValue.Text("2013-12-22 00:00:00.5")));
            for (int i = 0; i < values.size(); i++) {
                Watermark v = values.get(i);
                Cursor cursor = v.tieBreak() != null ? new Cursor.TimestampId("ts", "id")
                        : v.primary() instanceof CursorValue.Number ? new Cursor.Id("id") : new Cursor.Timestamp("ts");
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
            ControlTable control = new ControlTable(c, new SqliteDatabase());
            control.ensure();
            WatermarkTable t = WatermarkTable.of(new TableId("", "orders"), List.of("id"), new Cursor.TimestampId("ts", "id"));
            Watermark old = new Watermark(new CursorValue.Local(LocalDateTime.parse("2024-01-01T00:00")), 7L);
            Window w = Window.incremental(Watermark.of(new CursorValue.Local(LocalDateTime.parse("2023-12-31T00:00"))),
                    new Watermark(new CursorValue.Local(LocalDateTime.parse("2024-01-02T00:00")), 99L));
            control.progress(t, old, w, "[42]", 4000).write(c, control.dialect());
            c.commit();
            ControlTable.State s = control.read("orders").orElseThrow();
            assertThat(s.watermark()).isEqualTo(old);
            assertThat(s.inProgress()).isEqualTo(new ControlTable.InProgress(w, "[42]", 4000));
        }
    }
}
