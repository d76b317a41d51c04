package dev.tidemark.tests.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.tests.CliRun;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 7: for each changed key, {@code tidemark reconcile} shows the columns that differ with the source and
 * the target value (a bounded list in the text report, every listed key in {@code --json}); JSON keys keep their
 * types (integer keys are JSON numbers).
 */
class ReconcileChangedColumnsIT {
    @TempDir
    Path dir;
    String out;
    String err;

    int tidemark(String... args) {
        CliRun r = CliRun.run(args);
        out = r.out();
        err = r.err();
        return r.exit();
    }

    @Test
    void changedKeysShowTheColumnsThatDifferWithBothValues() throws Exception {
        String source = "jdbc:sqlite:" + dir.resolve("source.db");
        String target = "jdbc:sqlite:" + dir.resolve("target.db");
        List<Rows.Row> rows = Rows.generate(40, true);
        try (Connection c = DriverManager.getConnection(source); Statement s = c.createStatement()) {
            s.execute(Side.SQLITE.sourceDdl("items"));
            Side.SQLITE.insert(c, "items", rows, false);
        }
        try (Connection c = DriverManager.getConnection(target); Statement s = c.createStatement()) {
            s.execute(Side.SQLITE.variantDdl("items", true));
            Side.SQLITE.insert(c, "items", rows, true);
            s.execute("UPDATE items SET label = 'drifted', note = 'added' WHERE id = 3");
            s.execute("UPDATE items SET label = 'changed ' || id WHERE id > 20");
        }
        String label3 = rows.get(2).label();
        Path json = dir.resolve("result.json");
        int exit = tidemark("reconcile", "--source", source, "--target", target, "--table", "items", "--key", "id",
                "--settle", "0s", "--json", json.toString());
        assertThat(exit).as(err).isEqualTo(1);
        assertThat(out).contains("changed 21: 3, 21, 22");
        assertThat(out).as("the text report shows what changed in the first changed keys")
                .contains("3: label '" + label3 + "' → 'drifted', note NULL → 'added'")
                .contains("21: label '");
        assertThat(out.lines().filter(l -> l.matches("\\s+\\d+: label '.*")).count())
                .as("bounded in the text report").isLessThanOrEqualTo(10);

        JsonNode changed = new ObjectMapper().readTree(json.toFile()).get("tables").get(0).get("changed");
        assertThat(changed.get("count").asLong()).isEqualTo(21);
        assertThat(changed.get("keys").get(0).get("id").isIntegralNumber()).as("integer keys are JSON numbers").isTrue();
        assertThat(changed.get("keys").get(0).get("id").asLong()).isEqualTo(3);
        JsonNode rows3 = changed.get("rows");
        assertThat(rows3).as("complete in JSON").hasSize(21);
        JsonNode first = rows3.get(0);
        assertThat(first.get("key").get("id").asLong()).isEqualTo(3);
        assertThat(first.get("columns").get("label").get("source").asText()).isEqualTo(label3);
        assertThat(first.get("columns").get("label").get("target").asText()).isEqualTo("drifted");
        assertThat(rows.get(2).note()).isNull();
        assertThat(first.get("columns").get("note").get("source").isNull()).as("SQL NULL is JSON null").isTrue();
        assertThat(first.get("columns").get("note").get("target").asText()).isEqualTo("added");
        assertThat(first.get("columns").has("amount")).as("only the columns that differ").isFalse();
        assertThat(rows3.get(20).get("columns").get("label").get("target").asText()).isEqualTo("changed 40");
    }
}
