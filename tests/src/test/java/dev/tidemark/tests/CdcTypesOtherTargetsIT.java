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
 * real, varchar(n), time with microseconds, jsonb as PostgreSQL prints it, uuid), and an
 * unconstrained numeric keeps its scale on SQLite and is refused at start on MariaDB.
 */
class CdcTypesOtherTargetsIT {
    static final TableId T = new TableId("public", "typed");
    static final String TABLE = "CREATE TABLE public.typed (id int PRIMARY KEY, iv interval, c char(4), ip inet, e public.mood, j json, "
            + "s smallint, r real, vc varchar(10), t time, jb jsonb, u uuid";
    static final String ROW = "(1, '1 year 2 mons 3 days 04:05:06.789012', 'ab', '192.168.0.1/24', 'sad, but ok', '{\"b\": 1,  \"a\": 2}', "
            + "-32768, 0.1, 'ten chars!', '13:45:10.123456', '{\"b\": 1,  \"a\": [2]}', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'";
    static final String COLUMNS = "iv, c, ip, e, j, s, r, vc, t, jb, u";
    static final List<String> EXPECTED = List.of("P1Y2M3DT4H5M6.789012S", "ab  ", "192.168.0.1/24", "sad, but ok", "{\"b\": 1,  \"a\": 2}",
            "-32768", "0.1", "ten chars!", "13:45:10.123456", "{\"a\": [2], \"b\": 1}", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");

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
    void sqliteAndMariaDbRefuseTimetzAndArraysAtStart() throws Exception {
        for (TargetDatabase target : List.of(TargetDatabase.sqlite(), TargetDatabase.mariadb())) {
            try (target; CdcFixture f = new CdcFixture("types_other", dir, List.of(T))) {
                f.sql("CREATE TABLE public.typed (id int PRIMARY KEY, tz timetz, a int[], ok text)");
                assertThatThrownBy(() -> f.start(f.configFor(f.name, target.jdbcUrl(), target.properties().getProperty("user")), true, true,
                        new ReplayFrom.Stored()))
                        .as(target.name())
                        .hasMessageContaining("table public.typed column tz has type time with time zone")
                        .hasMessageContaining("table public.typed column a has type integer[]")
                        .hasMessageNotContaining("column ok");
            }
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
