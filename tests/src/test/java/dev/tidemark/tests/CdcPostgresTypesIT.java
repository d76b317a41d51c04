package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.tests.sink.TargetDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 3, "Some PostgreSQL values change on the way": through CDC into a PostgreSQL target every source
 * type either arrives exactly (the column Tidemark creates has the source column's type, and every value has the
 * same text, snapshot and streamed rows alike) or capture is refused at start naming table, column and type.
 */
class CdcPostgresTypesIT {
    static final TableId T = new TableId("public", "typed");

    @TempDir
    Path dir;

    @Test
    void unconstrainedNumericKeepsItsScale() throws Exception {
        arrivesExactly("numeric", "numeric", "'1.10'", "'0.000'", "'-12345678901234567890.123456789012345678900'", "'7'", "NULL");
    }

    @Test
    void intervalArrivesExactly() throws Exception {
        arrivesExactly("interval", "interval", "'1 year 2 mons 3 days 04:05:06.789012'", "'-1 mons +1 day'",
                "'1 mon -00:00:00.000001'", "'-178000000 years'", "'00:00:00'", "NULL");
    }

    @Test
    void charNArrivesAsCharN() throws Exception {
        arrivesExactly("char(5)", "character(5)", "'ab'", "'abcde'", "''", "' x'", "NULL");
    }

    @Test
    void varcharNKeepsItsLength() throws Exception {
        arrivesExactly("varchar(12)", "character varying(12)", "'twelve chars'", "'é'", "''", "NULL");
    }

    @Test
    void inetArrivesAsInet() throws Exception {
        arrivesExactly("inet", "inet", "'192.168.0.1/24'", "'10.0.0.1'", "'::1'", "'2001:db8::ff/64'", "NULL");
    }

    @Test
    void jsonKeepsItsText() throws Exception {
        arrivesExactly("json", "json", "'{\"b\": 1,  \"a\": [1, 2], \"a\": null}'", "'[]'", "'\"x\"'", "NULL");
    }

    @Test
    void smallintArrivesExactly() throws Exception {
        arrivesExactly("smallint", "smallint", "'-32768'", "'32767'", "'0'", "NULL");
    }

    @Test
    void realArrivesExactly() throws Exception {
        arrivesExactly("real", "real", "'0.1'", "'3.4028235e+38'", "'-1.17549435e-38'", "'1'", "NULL");
    }

    @Test
    void timeArrivesExactly() throws Exception {
        arrivesExactly("time", "time without time zone", "'13:45:10.123456'", "'00:00:00'", "'23:59:59.999999'", "NULL");
    }

    @Test
    void jsonbArrivesExactly() throws Exception {
        arrivesExactly("jsonb", "jsonb", "'{\"b\": 1,  \"a\": [1, 2]}'", "'[]'", "'\"x\"'", "'{\"a\": {\"c\": null}}'", "NULL");
    }

    @Test
    void uuidArrivesExactly() throws Exception {
        arrivesExactly("uuid", "uuid", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'", "'00000000-0000-0000-0000-000000000000'", "NULL");
    }

    @Test
    void timetzIsRefusedAtStart() throws Exception {
        refusedAtStart("timetz", "'10:15:30.123456+02'", "time with time zone");
    }

    @Test
    void intArrayArrivesExactlyInAnyDimensionAndLowerBound() throws Exception {
        arrivesExactlyAndReconciles("int[]", "integer[]", "{1,2,4}", "'{1,2,3}'", "'{}'", "'{NULL}'", "'[2:3]={1,2}'", "'{{1,2},{3,4}}'",
                "'[0:1][1:2]={{1,NULL},{-2147483648,2147483647}}'", "NULL");
    }

    @Test
    void textArrayArrivesExactly() throws Exception {
        arrivesExactlyAndReconciles("text[]", "text[]", "{\"a b\",\"c,d\",NULL,\" \"}", "'{\"a b\",\"c,d\",NULL,\"\"}'", "'{}'", "'{NULL}'", "'{\"NULL\",\"q\\\"uote\",é}'",
                "'{{a,b},{c,d}}'", "NULL");
    }

    @Test
    void networkTypesArriveExactly() throws Exception {
        arrivesExactlyAndReconciles("cidr", "cidr", "10.0.0.0/9", "'10.0.0.0/8'", "'2001:db8::/32'", "'192.168.1.0/24'", "NULL");
        arrivesExactly("macaddr", "macaddr", "'08:00:2b:01:02:03'", "'08002b:010203'", "NULL");
        arrivesExactly("macaddr8", "macaddr8", "'08:00:2b:01:02:03:04:05'", "'08:00:2b:01:02:03'", "NULL");
    }

    @Test
    void rangesArriveExactlyWithEmptyInfiniteAndExclusiveBounds() throws Exception {
        arrivesExactlyAndReconciles("int4range", "int4range", "[1,7)", "'[1,5)'", "'[1,5]'", "'empty'", "'(,)'", "'[3,)'", "NULL");
        arrivesExactly("int8range", "int8range", "'(-9223372036854775808,0]'", "'empty'", "NULL");
        arrivesExactly("numrange", "numrange", "'(1.10,2.5]'", "'[,0.000)'", "'empty'", "NULL");
        arrivesExactly("daterange", "daterange", "'[2024-01-01,infinity)'", "'[2024-01-01,2024-01-01]'", "'empty'", "NULL");
        arrivesExactly("tsrange", "tsrange", "'[\"2024-01-01 10:00:00\",\"2024-01-02 10:00:00.5\")'", "'(,)'", "NULL");
    }

    @Test
    void xmlAndTextSearchTypesArriveExactly() throws Exception {
        arrivesExactly("xml", "xml", "'<a b=\"1\">x &amp; y</a>'", "'<a/><b/>'", "'text only'", "NULL");
        arrivesExactly("tsvector", "tsvector", "'a fat:2 cat:3A'", "'''x y'' z'", "''", "NULL");
        arrivesExactly("tsquery", "tsquery", "'fat & (rat | !cat)'", "'a <-> b'", "'x:*AB'", "NULL");
    }

    @Test
    void geometricTypesArriveExactly() throws Exception {
        arrivesExactlyAndReconciles("point", "point", "(1,2.5)", "'(1,2)'", "'(-0.5,1e-05)'", "'(1e+20,123456789012345)'",
                "'(0.1,-1.7976931348623157e+308)'", "'(Infinity,-Infinity)'", "'(NaN,0)'", "NULL");
        arrivesExactly("line", "line", "'{1,-1,0.25}'", "NULL");
        arrivesExactly("lseg", "lseg", "'[(0,0),(1.5,2)]'", "NULL");
        arrivesExactly("box", "box", "'(1,1),(0,0)'", "'((3,4),(-1,-2))'", "NULL");
        arrivesExactly("path", "path", "'[(0,0),(1,1),(2,0)]'", "'((0,0),(1,1),(2,0))'", "NULL");
        arrivesExactly("polygon", "polygon", "'((0,0),(1,1),(2,0))'", "NULL");
        arrivesExactly("circle", "circle", "'<(1,2),3.5>'", "NULL");
    }

    @Test
    void lsnCharNameAndOidArriveExactly() throws Exception {
        arrivesExactly("pg_lsn", "pg_lsn", "'0/16B3748'", "'FFFFFFFF/FFFFFFFF'", "NULL");
        arrivesExactly("\"char\"", "\"char\"", "'a'", "'Z'", "NULL");
        arrivesExactly("name", "name", "'a name'", "'x'", "NULL");
        arrivesExactly("oid", "oid", "4294967295", "0", "NULL");
    }

    @Test
    void bitStringsArriveExactlyWithTheirLength() throws Exception {
        arrivesExactlyAndReconciles("bit(3)", "bit(3)", "001", "B'101'", "B'000'", "NULL");
        arrivesExactly("varbit(5)", "bit varying(5)", "B'10101'", "B''", "B'1'", "NULL");
        arrivesExactly("varbit", "bit varying", "B'1011001110001111'", "NULL");
    }

    @Test
    void multirangesArriveExactly() throws Exception {
        arrivesExactlyAndReconciles("int4multirange", "int4multirange", "{[1,4)}", "'{[1,3),[5,7)}'", "'{}'", "'{(,)}'", "NULL");
        arrivesExactly("nummultirange", "nummultirange", "'{(1.10,2.5],[3,)}'", "NULL");
        arrivesExactly("datemultirange", "datemultirange", "'{[2024-01-01,2024-02-01),[2024-03-01,infinity)}'", "NULL");
        arrivesExactly("int8multirange", "int8multirange", "'{[1,2)}'", "NULL");
        arrivesExactly("tsmultirange", "tsmultirange", "'{[\"2024-01-01 10:00:00\",\"2024-01-02 10:00:00.5\")}'", "NULL");
    }

    @Test
    void arraysOfOtherElementTypesArriveExactly() throws Exception {
        arrivesExactly("numeric[]", "numeric[]", "'{1.10,NaN,-0.000}'", "'{}'", "NULL");
        arrivesExactly("date[]", "date[]", "'{2024-01-02,infinity,\"4713-01-01 BC\"}'", "NULL");
        arrivesExactly("uuid[]", "uuid[]", "'{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,NULL}'", "NULL");
    }

    @Test
    void enumIsRefusedAtStartWhenThePostgresTargetLacksItsType() throws Exception {
        refusedAtStart("public.mood", "'happy'", "has enum type mood: the target has no enum type mood");
    }

    /** The target holds the enum type (created by the operator, as the start refusal says): labels arrive as that type. */
    @Test
    void enumArrivesAsTheSameEnumTypeOnAPostgresTarget() throws Exception {
        String labels = "('happy', 'sad, but ok', 'é \"q\" ''x''')";
        try (TargetDatabase target = TargetDatabase.postgres(); CdcFixture f = new CdcFixture("types", dir, List.of(T))) {
            try (Connection t = target.connect(); Statement s = t.createStatement()) {
                s.execute("CREATE TYPE mood AS ENUM " + labels);
            }
            f.sql("DROP TYPE IF EXISTS public.mood", "CREATE TYPE public.mood AS ENUM " + labels,
                    "CREATE TABLE public.typed (id int PRIMARY KEY, v public.mood)");
            String[] values = {"'happy'", "'sad, but ok'", "'é \"q\" ''x'''", "NULL"};
            insert(f, 0, values);
            Sidecar sidecar = f.start(f.configFor(f.name, target.jdbcUrl(), target.properties().getProperty("user")), true, true,
                    new ReplayFrom.Stored());
            try (Connection t = target.connect()) {
                awaitSame(f, t, sidecar, values.length);
                insert(f, 100, values);
                awaitSame(f, t, sidecar, values.length * 2);
                assertThat(columnType(t)).as("target column type").isEqualTo("mood");
            }
            ReconcileProof.equalThenExactlyTheChangedRow(f, target, T, "v", 1, "sad, but ok", "?::mood");
        }
    }

    @Test
    void aDomainIsRefusedAtStart() throws Exception {
        refusedAtStart("public.positive", "'5'", "positive");
    }

    @Test
    void aOneBitStringIsRefusedAtStart() throws Exception {
        refusedAtStart("bit(1)", "B'1'", "bit(1)");
    }

    @Test
    void moneyIsRefusedAtStart() throws Exception {
        refusedAtStart("money", "'12.34'", "money");
    }

    @Test
    void unconstrainedNumericNaNStopsCaptureNamingTheColumn() throws Exception {
        specialNumericStopsCapture("numeric", "'NaN'");
        specialNumericStopsCapture("numeric", "'-Infinity'");
    }

    @Test
    void constrainedNumericNaNStopsCaptureNamingTheColumn() throws Exception {
        specialNumericStopsCapture("numeric(10,2)", "'NaN'");
    }

    /** A streamed special value that has no decimal form must stop capture naming the column, never arrive as NULL. */
    private void specialNumericStopsCapture(String sourceType, String special) throws Exception {
        try (TargetDatabase target = TargetDatabase.postgres(); CdcFixture f = new CdcFixture("types", dir, List.of(T))) {
            f.sql("CREATE TABLE public.typed (id int PRIMARY KEY, v " + sourceType + ")", "INSERT INTO public.typed VALUES (1, '1.50')");
            Sidecar sidecar = f.start(f.configFor(f.name, target.jdbcUrl(), target.properties().getProperty("user")), true, true,
                    new ReplayFrom.Stored());
            try (Connection t = target.connect()) {
                awaitSame(f, t, sidecar, 1);
                f.sql("INSERT INTO public.typed VALUES (2, " + special + ")");
                await(special + " stops capture").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                        .until(() -> sidecar.failure().isPresent() || textsOrEmpty(t).size() == 2);
                assertThat(textsOrEmpty(t)).as("rows in the target").containsExactly("1=[1.50]");
                assertThat(sidecar.failure()).as("capture failure").isPresent();
                assertThat(sidecar.failure().get()).hasMessageContaining("table public.typed column v (type numeric)")
                        .hasMessageContaining("source.excludeColumns: [public.typed.v]");
            }
        }
    }

    @Test
    void aRefusedColumnLeftOutOfCaptureLetsTheRestOfTheTableArrive() throws Exception {
        try (TargetDatabase target = TargetDatabase.postgres(); CdcFixture f = new CdcFixture("types", dir, List.of(T))) {
            f.sql("CREATE TABLE public.typed (id int PRIMARY KEY, v timetz, w text)",
                    "INSERT INTO public.typed VALUES (1, '10:15:30+02', 'snapshot row')");
            PipelineConfig base = f.configFor(f.name, target.jdbcUrl(), target.properties().getProperty("user"));
            SourceConfig s = base.source();
            PipelineConfig config = new PipelineConfig(base.name(), new SourceConfig(s.jdbcUrl(), s.user(), s.password(), s.slot(),
                    s.publication(), s.tables(), s.setReplicaIdentityFull(), s.pollInterval(),
                    List.of(new SourceConfig.ColumnId(T, "v"))), base.kafka(), base.target(), base.stateDir());
            Sidecar sidecar = f.start(config, true, true, new ReplayFrom.Stored());
            f.sql("INSERT INTO public.typed VALUES (2, '11:00:00-05', 'streamed row')", "UPDATE public.typed SET v = '12:00:00+01' WHERE id = 1");
            try (Connection t = target.connect()) {
                await("both rows in the target without column v").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                        .failFast("pipeline failed", () -> sidecar.failure().isPresent())
                        .untilAsserted(() -> assertThat(rowsOf(t)).containsExactly("1=snapshot row", "2=streamed row"));
                assertThat(columnType(t)).as("column v in the target").isNull();
            }
            assertThat(sidecar.failure()).isEmpty();
        }
    }

    private static List<String> rowsOf(Connection t) {
        List<String> out = new ArrayList<>();
        try (Statement s = t.createStatement(); ResultSet rs = s.executeQuery("SELECT id, w FROM typed ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + "=" + rs.getString(2));
            }
        } catch (SQLException e) {
            return List.of(); // target table not created yet
        }
        return out;
    }

    /**
     * Creates {@code typed(id int primary key, v <type>)}, inserts one row per value before capture (snapshot rows),
     * waits for them, inserts the same values again (streamed rows), and waits until the target has the same text;
     * then compares the column types.
     */
    private void arrivesExactly(String sourceType, String expectedType, String... values) throws Exception {
        arrivesExactlyAndReconciles(sourceType, expectedType, null, values);
    }

    /**
     * As {@link #arrivesExactly}, and then, unless {@code changed} is null, reconcile finds no difference and, once row 1
     * of the target holds {@code changed}, exactly row 1.
     */
    private void arrivesExactlyAndReconciles(String sourceType, String expectedType, String changed, String... values) throws Exception {
        try (TargetDatabase target = TargetDatabase.postgres(); CdcFixture f = new CdcFixture("types", dir, List.of(T))) {
            f.sql("CREATE TABLE public.typed (id int PRIMARY KEY, v " + sourceType + ")");
            insert(f, 0, values);
            Sidecar sidecar = f.start(f.configFor(f.name, target.jdbcUrl(), target.properties().getProperty("user")), true, true,
                    new ReplayFrom.Stored());
            try (Connection t = target.connect()) {
                awaitSame(f, t, sidecar, values.length); // the snapshot rows
                insert(f, 100, values);
                awaitSame(f, t, sidecar, values.length * 2); // and the streamed ones
                assertThat(columnType(f.source)).isEqualTo(expectedType);
                assertThat(columnType(t)).as("target column type").isEqualTo(expectedType);
            }
            if (changed != null) {
                ReconcileProof.equalThenExactlyTheChangedRow(f, target, T, "v", 1, changed, "?::" + sourceType);
            }
        }
    }

    private static void awaitSame(CdcFixture f, Connection t, Sidecar sidecar, int rows) throws SQLException {
        List<String> expected = texts(f.source);
        assertThat(expected).hasSize(rows);
        await("target typed rows equal to the source as text").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .failFast("pipeline failed", () -> sidecar.failure().isPresent())
                .untilAsserted(() -> assertThat(textsOrEmpty(t)).isEqualTo(expected));
    }

    private void refusedAtStart(String sourceType, String value, String typeInMessage) throws Exception {
        try (TargetDatabase target = TargetDatabase.postgres(); CdcFixture f = new CdcFixture("types", dir, List.of(T))) {
            f.sql("DROP TYPE IF EXISTS public.mood", "CREATE TYPE public.mood AS ENUM ('happy', 'sad, but ok')",
                    "DROP DOMAIN IF EXISTS public.positive", "CREATE DOMAIN public.positive AS int CHECK (VALUE > 0)",
                    "CREATE TABLE public.typed (id int PRIMARY KEY, v " + sourceType + ")",
                    "INSERT INTO public.typed VALUES (1, " + value + ")");
            assertThatThrownBy(() -> {
                Sidecar s = f.start(f.configFor(f.name, target.jdbcUrl(), target.properties().getProperty("user")), true, true,
                        new ReplayFrom.Stored());
                // a start that does not refuse: let the value arrive so the failure shows what became of it
                try (Connection t = target.connect()) {
                    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                            .failFast("pipeline failed", () -> s.failure().isPresent())
                            .until(() -> textsOrEmpty(t).size() == 1);
                    throw new AssertionError("capture started; source " + texts(f.source) + " (" + columnType(f.source)
                            + ") arrived as " + textsOrEmpty(t) + " (" + columnType(t) + ")");
                }
            }).isNotInstanceOf(AssertionError.class)
                    .hasMessageContaining("public.typed")
                    .hasMessageContaining("column v")
                    .hasMessageContaining(typeInMessage)
                    .hasMessageContaining("source.excludeColumns: [public.typed.v]");
        }
    }

    private static void insert(CdcFixture f, int offset, String... values) throws SQLException {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            rows.add("(" + (offset + i + 1) + ", " + values[i] + ")");
        }
        f.sql("INSERT INTO public.typed VALUES " + String.join(", ", rows));
    }

    private static List<String> texts(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, v::text FROM typed ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + "=" + (rs.getString(2) == null ? "NULL" : "[" + rs.getString(2) + "]"));
            }
        }
        return out;
    }

    private static List<String> textsOrEmpty(Connection c) {
        try {
            return texts(c);
        } catch (SQLException e) {
            return Arrays.asList(); // target table not created yet
        }
    }

    private static String columnType(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = 'typed'::regclass AND a.attname = 'v'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
