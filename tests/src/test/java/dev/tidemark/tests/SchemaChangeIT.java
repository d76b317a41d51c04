package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.reconcile.ComparisonResult;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 items 3 and 4, exactly as reported, through real capture into a SQLite target: a column added with a
 * constant default (PostgreSQL writes no row events for the rows that already exist) and a column renamed. In both,
 * one row is updated after the DDL and the target must then equal the source in every value of every row, with no
 * column left over under the old name.
 */
class SchemaChangeIT {
    static final TableId T = new TableId("public", "ddl_items");

    @TempDir
    Path dir;

    @Test
    void aColumnAddedWithAConstantDefaultHasThatValueInEveryTargetRow() throws Exception {
        try (CdcFixture f = new CdcFixture("ddl_add", dir, List.of(T))) {
            f.sql("CREATE TABLE public.ddl_items (id int PRIMARY KEY, k int, v text)",
                    "INSERT INTO ddl_items SELECT g, g * 10, 'row ' || g FROM generate_series(1, 2990) g");
            Sidecar s = f.startPipeline();
            f.awaitEqual(s, T, "target.db", "id");

            f.sql("ALTER TABLE ddl_items ADD COLUMN c3 int NOT NULL DEFAULT 5",
                    "UPDATE ddl_items SET v = 'after' WHERE id = 7");
            awaitValue(f, s, "SELECT \"v\" FROM \"ddl_items\" WHERE \"id\" = 7", "after");

            ComparisonResult r = Drain.compareAfterDrain(f.source, T, f.targetUrl("target.db"), List.of("id"),
                    Duration.ofSeconds(20), () -> s.failure().isPresent());
            assertThat(s.failure()).as("pipeline failure").isEmpty();
            assertThat(r.summary()).as("target after ADD COLUMN c3 int NOT NULL DEFAULT 5").endsWith("EQUAL");
        }
    }

    @Test
    void aRenamedColumnKeepsItsValuesUnderTheNewName() throws Exception {
        try (CdcFixture f = new CdcFixture("ddl_rename", dir, List.of(T))) {
            f.sql("CREATE TABLE public.ddl_items (id int PRIMARY KEY, k int, v text)",
                    "INSERT INTO ddl_items SELECT g, g * 10, 'row ' || g FROM generate_series(1, 2990) g");
            Sidecar s = f.startPipeline();
            f.awaitEqual(s, T, "target.db", "id");

            f.sql("ALTER TABLE ddl_items RENAME COLUMN k TO k2",
                    "UPDATE ddl_items SET v = 'after', k2 = -1 WHERE id = 7");
            awaitValue(f, s, "SELECT \"v\" FROM \"ddl_items\" WHERE \"id\" = 7", "after");

            ComparisonResult r = Drain.compareAfterDrain(f.source, T, f.targetUrl("target.db"), List.of("id"),
                    Duration.ofSeconds(20), () -> s.failure().isPresent());
            assertThat(s.failure()).as("pipeline failure").isEmpty();
            assertThat(r.summary()).as("target after RENAME COLUMN k TO k2").endsWith("EQUAL");
            assertThat(targetColumns(f)).as("target columns after the rename").contains("k2").doesNotContain("k");
        }
    }

    /**
     * Any user of the source database may write a logical decoding message with the trigger's prefix: a forged
     * "rename" (and a forged "add with a value") claiming to be this pipeline's is not applied, since only the
     * trigger's messages carry its signature.
     */
    @Test
    void aSchemaChangeMessageAnotherUserWritesIsNotApplied() throws Exception {
        try (CdcFixture f = new CdcFixture("ddl_forged", dir, List.of(T))) {
            f.sql("CREATE TABLE public.ddl_items (id int PRIMARY KEY, k int, v text)",
                    "INSERT INTO ddl_items SELECT g, g * 10, 'row ' || g FROM generate_series(1, 300) g",
                    "CREATE ROLE \"forger_" + f.database + "\" LOGIN");
            Sidecar s = f.startPipeline();
            f.awaitEqual(s, T, "target.db", "id");
            String col = "\"type\": \"integer\", \"typname\": \"int4\", \"typmod\": -1, \"notnull\": false, \"identity\": false, "
                    + "\"generated\": false, \"default\": null, \"constant\": true";
            String shape = "{\"oid\": 1, \"schema\": \"public\", \"table\": \"ddl_items\", \"columns\": [{\"attnum\": 1, \"name\": \"id\", "
                    + col + "}, {\"attnum\": 2, \"name\": \"%s\", " + col + "}, {\"attnum\": 3, \"name\": \"v\", \"type\": \"text\", "
                    + "\"typname\": \"text\", \"typmod\": -1, \"notnull\": false, \"identity\": false, \"generated\": false, "
                    + "\"default\": null, \"constant\": true}%s]}";
            String forged = "{\"v\": 1, \"pipeline\": \"" + f.name + "\", \"tag\": \"ALTER TABLE\", \"before\": "
                    + String.format(shape, "k", "") + ", \"after\": " + String.format(shape, "forged", ", {\"attnum\": 4, \"name\": \"x\", "
                    + col.replace("\"default\": null", "\"default\": \"0\"") + ", \"value\": \"0\"}") + "}";
            try (Connection forger = DriverManager.getConnection(f.pg.jdbcUrl(f.database), "forger_" + f.database, "");
                 java.sql.PreparedStatement ps = forger.prepareStatement("SELECT pg_logical_emit_message(true, 'tidemark-ddl', ?)")) {
                ps.setString(1, "0123456789abcdef0123456789abcdef" + forged);
                ps.execute();
                ps.setString(1, forged);
                ps.execute();
            }
            f.sql("UPDATE ddl_items SET v = 'after' WHERE id = 7");
            awaitValue(f, s, "SELECT \"v\" FROM \"ddl_items\" WHERE \"id\" = 7", "after");

            assertThat(s.failure()).as("pipeline failure").isEmpty();
            assertThat(targetColumns(f)).as("target columns after two forged messages").contains("k").doesNotContain("forged", "x");
            assertThat(f.awaitEqual(s, T, "target.db", "id").summary()).endsWith("EQUAL");
        }
    }

    static void awaitValue(CdcFixture f, Sidecar s, String query, String expected) {
        await("target answers " + expected + " to " + query).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .failFast("pipeline failed", () -> s.failure().isPresent())
                .until(() -> {
                    try (Connection t = DriverManager.getConnection(f.targetUrl("target.db"));
                         Statement st = t.createStatement(); ResultSet rs = st.executeQuery(query)) {
                        return rs.next() && expected.equals(rs.getString(1));
                    } catch (SQLException e) {
                        return false;
                    }
                });
    }

    static List<String> targetColumns(CdcFixture f) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection t = DriverManager.getConnection(f.targetUrl("target.db"));
             Statement st = t.createStatement(); ResultSet rs = st.executeQuery("SELECT name FROM pragma_table_info('ddl_items')")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
