package dev.tidemark.tests.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.tests.CliRun;
import dev.tidemark.tests.sink.TargetDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tidemark reconcile} end to end: inline flags, exit codes 0/1/2/3, bounded key lists in the text report and
 * full lists in JSON, repair dry run, apply, refusal and {@code --force}, and a CDC pipeline file.
 */
class ReconcileCommandIT {
    @TempDir
    Path dir;
    String source;
    String target;
    String out;
    String err;

    @BeforeEach
    void databases() throws Exception {
        source = "jdbc:sqlite:" + dir.resolve("source.db");
        target = "jdbc:sqlite:" + dir.resolve("target.db");
        List<Rows.Row> rows = Rows.generate(40, true);
        try (Connection c = DriverManager.getConnection(source); Statement s = c.createStatement()) {
            s.execute(Side.SQLITE.sourceDdl("items"));
            Side.SQLITE.insert(c, "items", rows, false);
        }
        try (Connection c = DriverManager.getConnection(target); Statement s = c.createStatement()) {
            s.execute(Side.SQLITE.variantDdl("items", true));
            Side.SQLITE.insert(c, "items", rows, true);
        }
    }

    int tidemark(String... args) {
        CliRun r = CliRun.run(args);
        out = r.out();
        err = r.err();
        return r.exit();
    }

    String[] inline(String... more) {
        List<String> a = new ArrayList<>(List.of("reconcile", "--source", source, "--target", target, "--table", "items", "--key", "id",
                "--settle", "0s"));
        a.addAll(List.of(more));
        return a.toArray(String[]::new);
    }

    void onTarget(String... sql) throws Exception {
        try (Connection c = DriverManager.getConnection(target); Statement s = c.createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        }
    }

    /** 15 missing keys (more than the 10 shown), one surplus, one changed. */
    void plant() throws Exception {
        onTarget("DELETE FROM items WHERE id BETWEEN 11 AND 25", "INSERT INTO items (id, amount) VALUES (99, '1')",
                "UPDATE items SET amount = '1.2500001' WHERE id = 1");
    }

    @Test
    void equalTablesExitZero_differencesExitOneWithBoundedKeyListsAndFullJson() throws Exception {
        assertThat(tidemark(inline())).as(err).isZero();
        assertThat(out).contains("reconcile items → items: source 40 rows, target 40 rows → EQUAL").contains("missing 0");

        plant();
        Path json = dir.resolve("result.json");
        assertThat(tidemark(inline("--json", json.toString()))).as(err).isEqualTo(1);
        assertThat(out).contains("→ DIFFERENT")
                .contains("missing 15: 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, … 5 more")
                .contains("surplus 1: 99")
                .contains("changed 1: 1")
                .contains("holds at source position (none: not PostgreSQL), time ");
        JsonNode doc = new ObjectMapper().readTree(json.toFile());
        assertThat(doc.get("equal").asBoolean()).isFalse();
        JsonNode t = doc.get("tables").get(0);
        assertThat(t.get("missing").get("count").asLong()).isEqualTo(15);
        assertThat(t.get("missing").get("keys")).hasSize(15);
        assertThat(t.get("missing").get("keys").get(14).get("id").asText()).isEqualTo("25");
        assertThat(t.get("surplus").get("keys").get(0).get("id").asText()).isEqualTo("99");
        assertThat(t.get("holdsAt").get("sourcePosition").asText()).startsWith("time:");

        assertThat(tidemark(inline("--json", "-"))).isEqualTo(1);
        assertThat(new ObjectMapper().readTree(out).get("tables").get(0).get("changed").get("count").asLong()).isEqualTo(1);
        assertThat(err).as("the text report goes to stderr when JSON takes stdout").contains("→ DIFFERENT");

        assertThat(tidemark(inline("--exclude", "amount"))).as("changed only in an excluded column").isEqualTo(1);
        assertThat(out).contains("changed 0");
    }

    @Test
    void repairIsADryRunUntilApplied_thenTheTargetIsEqual() throws Exception {
        plant();
        assertThat(tidemark(inline("--repair"))).isEqualTo(1);
        assertThat(out).contains("repair items → items: upsert 16 row(s) from the source").contains("delete 1 row(s) from the target")
                .contains("dry run: nothing changed; add --apply to apply");
        assertThat(tidemark(inline())).as("nothing changed by the dry run").isEqualTo(1);

        assertThat(tidemark(inline("--repair", "--apply"))).as(err).isZero();
        assertThat(out).contains("repaired items: 16 upserted, 1 deleted through the sink writer").contains("→ EQUAL");
        assertThat(tidemark(inline())).isZero();
    }

    @Test
    void repairRefusesToDeleteMoreThanTheShareWithoutForce() throws Exception {
        onTarget("INSERT INTO items (id, amount) SELECT id + 1000, amount FROM items WHERE id <= 8");
        assertThat(tidemark(inline("--repair", "--apply"))).isEqualTo(2);
        assertThat(err).contains("refusing to delete 8 of the 48 rows of target table items (16.7%, more than the allowed 10.0%)")
                .contains("--force");
        assertThat(tidemark(inline("--repair", "--apply", "--max-delete-share", "20%"))).as(err).isZero();
    }

    @Test
    void forcedRepairDeletesBeyondTheShare() throws Exception {
        onTarget("INSERT INTO items (id, amount) SELECT id + 1000, amount FROM items WHERE id <= 8");
        assertThat(tidemark(inline("--repair", "--apply", "--force"))).as(err).isZero();
        assertThat(out).contains("8 deleted");
    }

    @Test
    void usageAndConfigurationErrorsExitTwoWithOneLineNamingWhatIsWrong() {
        assertThat(tidemark("reconcile", "--source", source, "--target", target)).isEqualTo(2);
        assertThat(err).contains("Missing --table T");
        assertThat(tidemark(inline("--key", "nope"))).isEqualTo(2);
        assertThat(err).contains("source table items has no key column nope");
        assertThat(tidemark("reconcile", "--source", source, "--target", target, "--table", "items", "--exclude", "ghost")).isEqualTo(2);
        assertThat(err).contains("excluded column(s) [ghost] are not columns of source table items");
        assertThat(tidemark("reconcile", "--source", source, "--target", target, "--table", "nosuch")).isEqualTo(2);
        assertThat(err).contains("source table nosuch does not exist");
        assertThat(tidemark("reconcile", "--source", source, "--target", target, "--table", "items", "--settle", "soon")).isEqualTo(2);
        assertThat(err).contains("Invalid value soon for --settle");
        assertThat(tidemark(inline("--force"))).isEqualTo(2);
        assertThat(err).contains("--force goes with --repair");
    }

    @Test
    void aTargetColumnMissingIsAConfigurationError() throws Exception {
        onTarget("ALTER TABLE items DROP COLUMN note");
        assertThat(tidemark(inline())).isEqualTo(2);
        assertThat(err).contains("target table items has no column note").contains("--exclude note");
        assertThat(tidemark(inline("--exclude", "note"))).as(err).isZero();
    }

    @Test
    void anUnreachableDatabaseExitsThreeWithTheUrlMasked() {
        assertThat(tidemark("reconcile", "--source", "jdbc:postgresql://app:s3cret@127.0.0.1:1/shop?password=s3cret", "--target", target,
                "--table", "public.items", "--settle", "0s")).isEqualTo(3);
        assertThat(err).contains("cannot connect to the source").contains("127.0.0.1:1/shop").doesNotContain("s3cret");
        assertThat(err.lines().count()).as("one line: %s", err).isEqualTo(1);
    }

    @Test
    void aPipelineFileGivesSourceTablesAndTarget() throws Exception {
        try (TargetDatabase pg = TargetDatabase.postgres()) {
            onSource(pg, "items");
            Path yaml = pipelineFile(pg, "  tables: [public.items]");
            assertThat(tidemark("reconcile", "--config", yaml.toString(), "--settle", "0s")).as(out + err).isZero();
            assertThat(out).contains("reconcile public.items → items: source 40 rows, target 40 rows → EQUAL")
                    .contains("holds at source position lsn:");
            plant();
            assertThat(tidemark("reconcile", "-c", yaml.toString(), "--table", "public.items", "--settle", "0s")).isEqualTo(1);
            assertThat(out).contains("missing 15");
            assertThat(tidemark("reconcile", "-c", yaml.toString(), "--source", source)).isEqualTo(2);
            assertThat(err).contains("--source cannot be combined with --config");
        }
    }

    @Test
    void aPipelineFileExcludesItsExcludedColumnsTableByTable() throws Exception {
        try (TargetDatabase pg = TargetDatabase.postgres()) {
            List<Rows.Row> rows = onSource(pg, "items", "orders");
            try (Connection c = DriverManager.getConnection(target); Statement s = c.createStatement()) {
                s.execute(Side.SQLITE.variantDdl("orders", true));
                Side.SQLITE.insert(c, "orders", rows, true);
            }
            onTarget("ALTER TABLE items DROP COLUMN note", "UPDATE orders SET note = 'drifted' WHERE id = 3");
            Path yaml = pipelineFile(pg, "  tables: [public.items, public.orders]", "  excludeColumns: [public.items.note]");
            assertThat(tidemark("reconcile", "--config", yaml.toString(), "--settle", "0s")).as(out + err).isEqualTo(1);
            assertThat(out).contains("reconcile public.items → items: source 40 rows, target 40 rows → EQUAL")
                    .contains("reconcile public.orders → orders: source 40 rows, target 40 rows → DIFFERENT")
                    .contains("changed 1: 3");
        }
    }

    /** A pipeline file of {@code pg} as the source and the SQLite target, with {@code sourceLines} in its source section. */
    Path pipelineFile(TargetDatabase pg, String... sourceLines) throws Exception {
        Path yaml = dir.resolve("pipeline.yaml");
        List<String> lines = new ArrayList<>(List.of("name: shop", "source:", "  url: " + pg.jdbcUrl(), "  user: postgres"));
        lines.addAll(List.of(sourceLines));
        lines.addAll(List.of("kafka:", "  bootstrapServers: 127.0.0.1:9092", "target:", "  url: " + target, ""));
        Files.writeString(yaml, String.join("\n", lines));
        return yaml;
    }

    /** The same 40 rows in each of {@code tables}, created on {@code pg}; returns the rows. */
    static List<Rows.Row> onSource(TargetDatabase pg, String... tables) throws Exception {
        List<Rows.Row> rows = Rows.generate(40, true);
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            for (String t : tables) {
                s.execute(Side.POSTGRESQL.sourceDdl(t));
                Side.POSTGRESQL.insert(c, t, rows, false);
            }
        }
        return rows;
    }
}
