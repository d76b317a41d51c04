package dev.tidemark.tests.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.ChecksumSql;
import dev.tidemark.jdbc.Database;
import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.ValueKind;
import dev.tidemark.reconcile.CanonicalValues;
import dev.tidemark.tests.sink.TargetDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 11, item 1, as a property of the in-database checksum SQL ({@link ChecksumSql#valueText}) on PostgreSQL and
 * MariaDB: random values of every kind checksummed in SQL ({@link CanonicalSamples}, edge values included), each
 * stored in every literal shape the engine accepts for it. On each engine: the SQL text of a value equals the
 * canonical text Java computes from the value as the engine prints it (so the in-database and streamed paths agree);
 * equal values share text, distinct values never do; no value's text is NULL and no value's row hash equals a NULL's.
 * Across engines: a value both engines hold has the same row hash on both. Fixed seed in {@code mvn verify};
 * {@code -Dtidemark.canonical.seed=random} (or a number) runs another, and every failure message names the seed.
 */
class CanonicalTextSqlIT {
    /** Values per kind; {@code -Dtidemark.canonical.values=N} for a longer run. */
    static final int VALUES = Integer.getInteger("tidemark.canonical.values", 250);
    static final long SEED = seed();
    static final ValueKind[] KINDS = {ValueKind.INTEGER, ValueKind.DECIMAL, ValueKind.BOOLEAN, ValueKind.TIMESTAMP, ValueKind.TIMESTAMPTZ,
        ValueKind.DATE, ValueKind.TIME, ValueKind.BYTES, ValueKind.TEXT};

    TargetDatabase pg;
    TargetDatabase maria;

    private static long seed() {
        String s = System.getProperty("tidemark.canonical.seed", "20261130");
        return s.equals("random") ? new java.util.Random().nextLong() : Long.parseLong(s);
    }

    @BeforeEach
    void databases() {
        pg = TargetDatabase.postgres();
        maria = TargetDatabase.mariadb();
    }

    @AfterEach
    void drop() throws Exception {
        if (pg != null) {
            pg.close();
        }
        if (maria != null) {
            maria.close();
        }
    }

    /** What one engine made of one stored literal. */
    record Seen(Object identity, String literal, String sqlText, String javaText, long rowHash) {
    }

    @Test
    void sqlTextIsTheCanonicalTextLosslessAndTheSameOnBothEngines() throws Exception {
        Database pgDb = Databases.forUrl(pg.jdbcUrl());
        Database mariaDb = Databases.forUrl(maria.jdbcUrl());
        for (ValueKind kind : KINDS) {
            CanonicalSamples samples = new CanonicalSamples(SEED + kind.ordinal());
            List<CanonicalSamples.Sample> values = new ArrayList<>();
            for (int i = 0; i < VALUES; i++) {
                values.add(samples.next(kind));
            }
            List<Seen> onPg = checksum(pg, pgDb, mariaDb, kind, values, true);
            List<Seen> onMaria = checksum(maria, mariaDb, pgDb, kind, values, false);
            Map<Object, Long> pgHashes = new HashMap<>();
            for (Seen s : onPg) {
                pgHashes.put(s.identity(), s.rowHash());
            }
            for (Seen s : onMaria) {
                if (pgHashes.containsKey(s.identity())) {
                    assertThat(s.rowHash()).as("seed %d: %s %s hashes alike on MariaDB (%s) and PostgreSQL", SEED, kind, s.identity(), s.sqlText())
                            .isEqualTo(pgHashes.get(s.identity()));
                }
            }
        }
    }

    /** Stores the values' literals (and a NULL) in a fresh table, and reads back each row's SQL text, Java text and row hash. */
    private List<Seen> checksum(TargetDatabase db, Database engine, Database other, ValueKind kind, List<CanonicalSamples.Sample> values, boolean postgres)
            throws Exception {
        String table = "canon_" + kind.name().toLowerCase();
        String type = CanonicalSamples.types(kind)[postgres ? 0 : 1];
        List<Object> identities = new ArrayList<>();
        List<String> literals = new ArrayList<>();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            session(s, postgres);
            s.execute("CREATE TABLE " + table + " (id integer PRIMARY KEY, v " + type + ")");
            String bind = kind == ValueKind.BYTES ? (postgres ? "decode(?, 'hex')" : "UNHEX(?)") : postgres ? "CAST(? AS " + type + ")" : "?";
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + table + " VALUES (?, " + bind + ")")) {
                ins.setInt(1, 0);
                ins.setString(2, null);
                ins.executeUpdate();
                identities.add(null);
                literals.add(null);
                for (CanonicalSamples.Sample v : values) {
                    for (String literal : postgres ? v.postgres() : v.mariadb()) {
                        ins.setInt(1, identities.size());
                        ins.setString(2, literal);
                        ins.executeUpdate();
                        identities.add(v.identity());
                        literals.add(literal);
                    }
                }
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
            TableId id = postgres ? new TableId("public", table) : new TableId("", table);
            SourceColumn column = engine.readTable(c, id).columns().get(1);
            ChecksumSql sql = engine.checksumSql().orElseThrow();
            String v = postgres ? "\"v\"" : "`v`";
            String text = sql.valueText(v, kind, column);
            String query = "SELECT id, v, " + text + ", " + sql.sumOfRowHashes(List.of(text), other) + " FROM " + table + " GROUP BY id, v ORDER BY id";
            List<Seen> seen = new ArrayList<>();
            try (ResultSet rs = s.executeQuery(query)) {
                while (rs.next()) {
                    int i = rs.getInt(1);
                    String sqlText = rs.getString(3);
                    String javaText = CanonicalValues.readText(rs, 2, kind);
                    seen.add(new Seen(identities.get(i), literals.get(i), sqlText, javaText, rs.getBigDecimal(4).longValue()));
                }
            }
            assertThat(seen).as("seed %d: %s rows read back on %s", SEED, kind, engine.name()).hasSize(identities.size());
            check(seen, kind, engine.name());
            return seen;
        }
    }

    private static void session(Statement s, boolean postgres) throws Exception {
        if (postgres) {
            s.execute("SET TimeZone = 'UTC'");
            s.execute("SET DateStyle = 'ISO, YMD'");
        } else {
            s.execute("SET SESSION time_zone = '+00:00'");
        }
    }

    private static void check(List<Seen> seen, ValueKind kind, String engine) {
        Seen nullRow = seen.get(0);
        assertThat(nullRow.sqlText()).as("seed %d: %s NULL on %s", SEED, kind, engine).isNull();
        Map<String, Seen> byText = new HashMap<>();
        Map<Object, Seen> byIdentity = new HashMap<>();
        for (Seen s : seen.subList(1, seen.size())) {
            String what = String.format("seed %d: %s literal '%s' on %s", SEED, kind, s.literal(), engine);
            assertThat(s.sqlText()).as("%s: SQL text", what).isNotNull().isEqualTo(s.javaText());
            assertThat(s.rowHash()).as("%s: row hash against NULL's", what).isNotEqualTo(nullRow.rowHash());
            Seen sameText = byText.putIfAbsent(s.sqlText(), s);
            if (sameText != null) {
                assertThat(sameText.identity()).as("%s: shares text '%s' with literal '%s'", what, s.sqlText(), sameText.literal()).isEqualTo(s.identity());
            }
            Seen sameValue = byIdentity.putIfAbsent(s.identity(), s);
            if (sameValue != null) {
                assertThat(s.sqlText()).as("%s: equal to literal '%s'", what, sameValue.literal()).isEqualTo(sameValue.sqlText());
                assertThat(s.rowHash()).as("%s: hash equal to literal '%s'", what, sameValue.literal()).isEqualTo(sameValue.rowHash());
            }
        }
    }
}
