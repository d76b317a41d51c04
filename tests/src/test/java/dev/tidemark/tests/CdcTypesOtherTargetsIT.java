package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.tests.sink.TargetDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 3 on the other targets: the PostgreSQL types a SQLite or MariaDB target holds as text arrive in the
 * representation docs/types.md documents (interval as ISO-8601, char(n) padded, inet, enum label, json text, smallint,
 * real, varchar(n), time with microseconds, jsonb as PostgreSQL prints it, uuid, arrays as PostgreSQL's array text with
 * their lower bounds), and an
 * unconstrained numeric keeps its scale on SQLite and is refused at start on MariaDB.
 */
class CdcTypesOtherTargetsIT {
    static final TableId T = new TableId("public", "typed");
    static final String TABLE = "CREATE TABLE public.typed (id int PRIMARY KEY, iv interval, c char(4), ip inet, e public.mood, j json, "
            + "s smallint, r real, vc varchar(10), t time, jb jsonb, u uuid, a int[], ta text[]";
    static final String ROW = "(1, '1 year 2 mons 3 days 04:05:06.789012', 'ab', '192.168.0.1/24', 'sad, but ok', '{\"b\": 1,  \"a\": 2}', "
            + "-32768, 0.1, 'ten chars!', '13:45:10.123456', '{\"b\": 1,  \"a\": [2]}', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '[2:3]={1,2}', '{\"a b\",\"c,d\",NULL,\"\"}'";
    static final String COLUMNS = "iv, c, ip, e, j, s, r, vc, t, jb, u, a, ta";
    static final List<String> EXPECTED = List.of("P1Y2M3DT4H5M6.789012S", "ab  ", "192.168.0.1/24", "sad, but ok", "{\"b\": 1,  \"a\": 2}",
            "-32768", "0.1", "ten chars!", "13:45:10.123456", "{\"a\": [2], \"b\": 1}", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
            "[2:3]={1,2}", "{\"a b\",\"c,d\",NULL,\"\"}");

    @TempDir
    Path dir;

    @Test
    void sqliteHoldsTheDocumentedText() throws Exception {
        List<String> expected = new ArrayList<>(EXPECTED);
        expected.add("1.10");
        assertThat(arrive(TargetDatabase.sqlite(), TABLE + ", n numeric)", ROW + ", 1.10)", COLUMNS + ", n")).isEqualTo(expected);
    }

    @Test
    void mariaDbHoldsTheDocumentedText() throws Exception {
        assertThat(arrive(TargetDatabase.mariadb(), TABLE + ")", ROW + ")", COLUMNS)).isEqualTo(EXPECTED);
    }

    @Test
    void sqliteAndMariaDbRefuseTimetzAtStart() throws Exception {
        for (TargetDatabase target : List.of(TargetDatabase.sqlite(), TargetDatabase.mariadb())) {
            try (target; CdcFixture f = new CdcFixture("types_other", dir, List.of(T))) {
                f.sql("CREATE TABLE public.typed (id int PRIMARY KEY, tz timetz, a int[][], ok text)");
                assertThatThrownBy(() -> f.start(f.configFor(f.name, target.jdbcUrl(), target.properties().getProperty("user")), true, true,
                        new ReplayFrom.Stored()))
                        .as(target.name())
                        .hasMessageContaining("table public.typed column tz has type time with time zone")
                        .hasMessageNotContaining("column a")
                        .hasMessageNotContaining("column ok");
            }
        }
    }

    @Test
    void arraysArriveAsTheirTextAndReconcileOnSqliteAndMariaDb() throws Exception {
        String[] rows = {"'{1,2,3}', '{\"a b\",\"c,d\",NULL,\"\"}'", "'{}', '{}'", "'{NULL}', '{NULL}'", "'[2:3]={1,2}', '{{a,b},{c,d}}'",
            "'{{1,2},{3,4}}', '{\"q\\\"uote\",é}'", "NULL, NULL"};
        arriveAsTextAndReconcile("a int[], b text[]", rows, "b", 4, "{{a,b},{c,e}}");
    }

    @Test
    void textTypesArriveAsTheirTextAndReconcileOnSqliteAndMariaDb() throws Exception {
        String[] rows = {"'<a b=\"1\">x &amp; y</a>', '10.0.0.0/8'", "'<a/><b/>', '2001:db8::/32'", "NULL, NULL"};
        arriveAsTextAndReconcile("a xml, b cidr", rows, "b", 1, "10.0.0.0/9");
        rows = new String[] {"'08:00:2b:01:02:03', '08:00:2b:01:02:03:04:05'", "NULL, NULL"};
        arriveAsTextAndReconcile("a macaddr, b macaddr8", rows, "b", 1, "08:00:2b:01:02:03:04:06");
        rows = new String[] {"'[1,5)', '(1.10,2.5]'", "'empty', '(,)'", "'[3,)', '[,0.000)'", "NULL, NULL"};
        arriveAsTextAndReconcile("a int4range, b numrange", rows, "a", 1, "[1,6)");
        rows = new String[] {"'[2024-01-01,infinity)', '[\"2024-01-01 10:00:00\",\"2024-01-02 10:00:00.5\")'", "'empty', '(,)'", "NULL, NULL"};
        arriveAsTextAndReconcile("a daterange, b tsrange", rows, "a", 1, "[2024-01-02,infinity)");
        rows = new String[] {"'a fat:2 cat:3A', 'fat & (rat | !cat)'", "'''x y'' z', 'a <-> b'", "NULL, NULL"};
        arriveAsTextAndReconcile("a tsvector, b tsquery", rows, "a", 1, "'a' 'fat':2");
    }

    @Test
    void geometricLsnMultirangeAndBitTypesArriveAsPostgresTextAndReconcileOnSqliteAndMariaDb() throws Exception {
        String[] rows = {"'(1e+20,0.1)', '<(1,2),3.5>'", "'(-0.5,1e-05)', '<(0,-0),1>'", "'(Infinity,NaN)', '<(123456789012345,2),0.25>'",
            "NULL, NULL"};
        arriveAsTextAndReconcile("a point, b circle", rows, "b", 1, "<(1,2),4>");
        rows = new String[] {"'((3,4),(-1,-2))', '((0,0),(1,1),(2,0))'", "'(1,1),(0,0)', '[(0,0),(1,1)]'", "NULL, NULL"};
        arriveAsTextAndReconcile("a box, b path", rows, "a", 2, "(2,1),(0,0)");
        rows = new String[] {"'0/16B3748', '{[1,3),[5,7)}'", "'FFFFFFFF/FFFFFFFF', '{}'", "NULL, NULL"};
        arriveAsTextAndReconcile("a pg_lsn, b int4multirange", rows, "a", 1, "0/16B3749");
        rows = new String[] {"B'101', B'1'", "B'000', B''", "NULL, NULL"};
        arriveAsTextAndReconcile("a bit(3), b varbit", rows, "a", 1, "111");
    }

    /**
     * Into SQLite and then MariaDB: {@code typed(id int primary key, <columns a, b>)} with {@code rows} as snapshot rows
     * and again as streamed rows; the target holds each value as the source's text, and reconcile finds no difference,
     * then, with {@code column} of row {@code id} set to {@code changed} in the target, exactly that row.
     */
    private void arriveAsTextAndReconcile(String columns, String[] rows, String column, int id, String changed) throws Exception {
        for (TargetDatabase target : List.of(TargetDatabase.sqlite(), TargetDatabase.mariadb())) {
            try (target; CdcFixture f = new CdcFixture("types_other", dir, List.of(T))) {
                f.sql("CREATE TABLE public.typed (id int PRIMARY KEY, " + columns + ")");
                insertPairs(f, 0, rows);
                Sidecar sidecar = f.start(f.configFor(f.name, target.jdbcUrl(), target.properties().getProperty("user")), true, true,
                        new ReplayFrom.Stored());
                try (Connection t = target.connect()) {
                    awaitPairs(f, t, sidecar, target.name(), rows.length);
                    insertPairs(f, 100, rows);
                    awaitPairs(f, t, sidecar, target.name(), rows.length * 2);
                }
                ReconcileProof.equalThenExactlyTheChangedRow(f, target, T, column, id, changed, "?");
            }
        }
    }

    private static void insertPairs(CdcFixture f, int offset, String[] rows) throws java.sql.SQLException {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < rows.length; i++) {
            values.add("(" + (offset + i + 1) + ", " + rows[i] + ")");
        }
        f.sql("INSERT INTO public.typed VALUES " + String.join(", ", values));
    }

    /** Waits until the target holds, as text, what the source prints for every row ({@code a}, {@code b}). */
    private static void awaitPairs(CdcFixture f, Connection t, Sidecar sidecar, String target, int rows) throws Exception {
        List<String> expected = pairTexts(f.source);
        assertThat(expected).hasSize(rows);
        await("values in the " + target + " target as the source's text").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .failFast("pipeline failed", () -> sidecar.failure().isPresent())
                .untilAsserted(() -> assertThat(pairTextsOrEmpty(t)).isEqualTo(expected));
    }

    private static List<String> pairTexts(Connection c) throws java.sql.SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, a, b FROM typed ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + "=" + rs.getString(2) + "|" + rs.getString(3));
            }
        }
        return out;
    }

    private static List<String> pairTextsOrEmpty(Connection c) {
        try {
            return pairTexts(c);
        } catch (java.sql.SQLException e) {
            return List.of(); // target table not created yet
        }
    }

    @Test
    void mariaDbRefusesAnUnconstrainedNumericAtStart() throws Exception {
        try (TargetDatabase target = TargetDatabase.mariadb(); CdcFixture f = new CdcFixture("types_other", dir, List.of(T))) {
            f.sql("CREATE TABLE public.typed (id int PRIMARY KEY, n numeric, fixed numeric(10,2))");
            assertThatThrownBy(() -> f.start(f.configFor(f.name, target.jdbcUrl(), target.properties().getProperty("user")), true, true,
                    new ReplayFrom.Stored()))
                    .hasMessageContaining("table public.typed column n has type numeric: MariaDB")
                    .hasMessageNotContaining("column fixed");
        }
    }

    private List<String> arrive(TargetDatabase targetDatabase, String create, String row, String columns) throws Exception {
        try (TargetDatabase target = targetDatabase; CdcFixture f = new CdcFixture("types_other", dir, List.of(T))) {
            f.sql("DROP TYPE IF EXISTS public.mood", "CREATE TYPE public.mood AS ENUM ('happy', 'sad, but ok')", create,
                    "INSERT INTO public.typed VALUES " + row);
            Sidecar sidecar = f.start(f.configFor(f.name, target.jdbcUrl(), target.properties().getProperty("user")), true, true,
                    new ReplayFrom.Stored());
            List<String> out = new ArrayList<>();
            try (Connection t = target.connect()) {
                await("row 1 in the " + target.name() + " target").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                        .failFast("pipeline failed", () -> sidecar.failure().isPresent())
                        .until(() -> {
                            try (Statement s = t.createStatement(); ResultSet rs = s.executeQuery("SELECT " + columns + " FROM typed WHERE id = 1")) {
                                if (!rs.next()) {
                                    return false;
                                }
                                out.clear();
                                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                                    out.add(rs.getString(i));
                                }
                                return true;
                            } catch (Exception e) {
                                return false; // target table not created yet
                            }
                        });
            }
            return out;
        }
    }
}
