package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.tests.sink.TargetDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 1: a SQLite {@code modified TEXT} column holding ISO-8601 text ({@code 2024-05-01T10:00:00Z},
 * {@code 2024-05-01 10:00:00}) was refused as a cursor ({@code cursor column modified is TEXT, which cannot be a
 * timestamp cursor}), also with {@code --cursor-kind timestamp}. Now it is accepted when every value has one shape
 * (and the output says it is compared as text), and refused (exit 2) naming the shapes and example keys otherwise.
 */
class WatermarkTextCursorIT {
    @TempDir
    Path dir;
    String out;
    String err;

    private Path source(String... modified) throws Exception {
        Path db = dir.resolve("src.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT, modified TEXT)");
            for (int i = 0; i < modified.length; i++) {
                s.execute("INSERT INTO notes VALUES (" + (i + 1) + ", 'note " + (i + 1) + "', '" + modified[i] + "')");
            }
        }
        return db;
    }

    private static void sql(Path db, String statement) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    @Test
    void isoTextWithZoneIsACursorIntoSqlite() throws Exception {
        Path src = source("2024-05-01T10:00:00Z", "2024-05-02T10:00:00Z", "2024-05-03T10:00:00Z");
        String[] args = {"watermark", "--source", "jdbc:sqlite:" + src, "--target", "jdbc:sqlite:" + dir.resolve("replica.db"),
            "--table", "notes", "--cursor", "modified", "--settle", "0s", "--no-progress"};
        assertThat(tidemark(args)).as(err + out).isZero();
        System.out.println("first run:\n" + out + err);
        assertThat(out).contains("notes: initial window").contains("3 rows");
        assertThat(err).contains("cursor modified is TEXT holding date-times of one shape (YYYY-MM-DDTHH:MM:SSZ, 3 rows)")
                .contains("compared as text");
        sql(src, "INSERT INTO notes VALUES (4, 'note 4', '2024-05-04T10:00:00Z')");
        sql(src, "UPDATE notes SET body = 'changed', modified = '2024-05-04T11:00:00Z' WHERE id = 1");
        assertThat(tidemark(args)).as(err + out).isZero();
        System.out.println("second run:\n" + out + err);
        assertThat(out).contains("notes: incremental window").contains(": 2 rows");
        assertThat(rows(DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("replica.db"))))
                .containsExactly("1 changed 2024-05-04T11:00:00Z", "2 note 2 2024-05-02T10:00:00Z", "3 note 3 2024-05-03T10:00:00Z",
                        "4 note 4 2024-05-04T10:00:00Z");
    }

    @Test
    void isoTextWithASpaceAndNoZoneIsATimestampCursorIntoPostgres() throws Exception {
        Path src = source("2024-05-01 10:00:00", "2024-05-01 11:00:00");
        try (TargetDatabase pg = TargetDatabase.postgres()) {
            String[] args = {"watermark", "--source", "jdbc:sqlite:" + src, "--target", pg.jdbcUrl(), "--target-user",
                pg.properties().getProperty("user"), "--table", "notes", "--cursor", "modified", "--cursor-kind", "timestamp",
                "--settle", "0s", "--no-progress"};
            assertThat(tidemark(args)).as(err + out).isZero();
            System.out.println("into PostgreSQL:\n" + out + err);
            assertThat(out).contains("2 rows");
            assertThat(err).contains("cursor modified is TEXT holding date-times of one shape (YYYY-MM-DD HH:MM:SS, 2 rows)");
            sql(src, "INSERT INTO notes VALUES (3, 'note 3', '2024-05-01 12:00:00')");
            assertThat(tidemark(args)).as(err + out).isZero();
            assertThat(out).contains(": 1 row");
            try (Connection c = pg.connect()) {
                assertThat(rows(c)).containsExactly("1 note 1 2024-05-01 10:00:00", "2 note 2 2024-05-01 11:00:00",
                        "3 note 3 2024-05-01 12:00:00");
            }
        }
    }

    @Test
    void mixedShapesAreRefusedNamingShapesAndKeys() throws Exception {
        Path src = source("2024-05-01T10:00:00Z", "2024-05-01 11:00:00", "2024-05-01T12:00:00Z", "yesterday");
        Path replica = dir.resolve("replica.db");
        int code = tidemark("watermark", "--source", "jdbc:sqlite:" + src, "--target", "jdbc:sqlite:" + replica,
                "--table", "notes", "--cursor", "modified", "--no-progress");
        System.out.println("mixed shapes, exit " + code + ":\n" + out + err);
        assertThat(code).isEqualTo(2);
        List<String> lines = err.lines().filter(l -> l.startsWith("tidemark: ")).toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).contains("cursor column modified", "3 shapes", "YYYY-MM-DDTHH:MM:SSZ (2 rows, e.g. keys 1, 3)",
                "YYYY-MM-DD HH:MM:SS (1 row, e.g. key 2)", "not ISO-8601 (1 row, e.g. key 4)", "strftime(");
        assertThat(err).doesNotContain("\tat ");
    }

    private static List<String> rows(Connection c) throws Exception {
        List<String> out = new ArrayList<>();
        try (c; Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT \"id\", \"body\", \"modified\" FROM \"notes\" ORDER BY \"id\"")) {
            while (rs.next()) {
                out.add(rs.getLong(1) + " " + rs.getString(2) + " " + rs.getString(3));
            }
        }
        return out;
    }

    int tidemark(String... args) {
        CliRun r = CliRun.run(args);
        out = r.out();
        err = r.err();
        return r.exit();
    }
}
