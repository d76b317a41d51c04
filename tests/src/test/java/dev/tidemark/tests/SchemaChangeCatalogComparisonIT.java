package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.kafka.ReplayFrom;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schema changes when the source user may not create event triggers (not a superuser): capture compares each
 * table's event columns with the catalog. A column added without a default is followed from the rows; a renamed
 * column and a column added with a default cannot be told apart from changes the rows show safely, so capture stops
 * with one line naming table, change and recovery, after applying everything before it. No event trigger is created.
 */
class SchemaChangeCatalogComparisonIT {
    @TempDir
    Path dir;

    @Test
    void aRenameStopsAfterANullableAddWasFollowed() throws Exception {
        TableId t = new TableId("public", "cc_items");
        try (CdcFixture f = new CdcFixture("cc_rename", dir.resolve("rename"), List.of(t))) {
            Sidecar s = f.start(config(f, t), true, true, new ReplayFrom.Stored());
            f.awaitEqual(s, t, "target.db", "id");

            f.sql("ALTER TABLE cc_items ADD COLUMN c int", "UPDATE cc_items SET c = id WHERE id % 3 = 0");
            awaitEveryValueEqual(f, s, t);
            assertThat(eventTriggers(f)).as("event triggers created by a user who may not").isZero();

            f.sql("ALTER TABLE cc_items RENAME COLUMN k TO k2", "UPDATE cc_items SET k2 = 0 WHERE id = 1");
            await("capture stops on the rename").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> s.failure().isPresent());
            assertThat(s.failure().get().getMessage()).isEqualTo("capture stopped: table public.cc_items: columns [k] disappeared and "
                    + "[k2] appeared; without an event trigger a rename cannot be told from a drop and an add; nothing from that change "
                    + "on was sent. Copy the table again: `tidemark snapshot --config <path> --table public.cc_items` (an event trigger, "
                    + "which needs a superuser as source.user, would carry such changes)");
        }
    }

    @Test
    void aColumnAddedWithADefaultStops() throws Exception {
        TableId t = new TableId("public", "cc_items");
        try (CdcFixture f = new CdcFixture("cc_default", dir.resolve("default"), List.of(t))) {
            Sidecar s = f.start(config(f, t), true, true, new ReplayFrom.Stored());
            f.awaitEqual(s, t, "target.db", "id");

            f.sql("ALTER TABLE cc_items ADD COLUMN c3 int NOT NULL DEFAULT 5", "UPDATE cc_items SET k = 0 WHERE id = 1");
            await("capture stops on the added default").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> s.failure().isPresent());
            assertThat(s.failure().get().getMessage()).isEqualTo("capture stopped: table public.cc_items: columns [c3] were added with a "
                    + "default, which every existing row got without a row event; nothing from that change on was sent. Copy the table "
                    + "again: `tidemark snapshot --config <path> --table public.cc_items` (an event trigger, which needs a superuser as "
                    + "source.user, would carry such changes)");
            try (Connection tc = java.sql.DriverManager.getConnection(f.targetUrl("target.db")); Statement st = tc.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*) FROM \"cc_items\" WHERE \"k\" = \"id\" * 10")) {
                assertThat(rs.next() ? rs.getInt(1) : -1).as("the rows before the DDL stay, the update after it is not applied").isEqualTo(300);
            }
        }
    }

    /** A replication user that owns the table but is no superuser; the config captures through it. */
    private static PipelineConfig config(CdcFixture f, TableId t) throws Exception {
        String role = "tm_" + f.database;
        f.sql("CREATE ROLE \"" + role + "\" LOGIN REPLICATION",
                "GRANT CREATE ON DATABASE \"" + f.database + "\" TO \"" + role + "\"",
                "GRANT CREATE ON SCHEMA public TO \"" + role + "\"",
                "CREATE TABLE public.cc_items (id int PRIMARY KEY, k int, v text)",
                "INSERT INTO cc_items SELECT g, g * 10, 'row ' || g FROM generate_series(1, 300) g",
                "ALTER TABLE public.cc_items OWNER TO \"" + role + "\"");
        PipelineConfig base = f.config(f.name, "target.db");
        SourceConfig s = base.source();
        return new PipelineConfig(base.name(), new SourceConfig(s.jdbcUrl(), role, Secret.empty(), s.slot(), s.publication(), s.tables(),
                true, Duration.ofMillis(10)), base.kafka(), base.target(), base.stateDir());
    }

    /** Every value of every row equal (SQLite reads a double-quoted column it lacks as text: such a read is not equal). */
    private static void awaitEveryValueEqual(CdcFixture f, Sidecar s, TableId t) {
        await("every value of " + t + " equal").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(300))
                .failFast("pipeline failed", () -> s.failure().isPresent())
                .until(() -> {
                    try (Connection tc = java.sql.DriverManager.getConnection(f.targetUrl("target.db"))) {
                        return dev.tidemark.testkit.TableComparison.compare(f.source, t, List.of("id"), tc, t.table(),
                                dev.tidemark.testkit.TableComparison.QuoteStyle.DOUBLE).equal();
                    } catch (java.sql.SQLException | RuntimeException e) {
                        return false;
                    }
                });
    }

    private static int eventTriggers(CdcFixture f) throws Exception {
        try (Statement st = f.source.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_event_trigger")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
