package dev.tidemark.tests.compare;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.tests.CliRun;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tidemark compare} and {@code tidemark demo} as a user runs them: each starts its own throwaway PostgreSQL
 * (the shared test Kafka is given with {@code --kafka}), prints the table, writes the report and JSON, removes its
 * temporary folder, and exits 0 because the CDC target equals the source.
 */
class CompareCommandIT {
    private static final ObjectMapper JSON = new ObjectMapper();

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
    void compareInvoicesPrintsTheTableAndWritesJsonAndASelfContainedReport() throws Exception {
        Set<Path> before = tempFolders("tidemark-compare-");
        Path json = dir.resolve("result.json");
        int code = tidemark("compare", "--scenario", "invoices", "--kafka", TestInfrastructure.kafkaBootstrap(),
                "--out", dir.resolve("out").toString(), "--json", json.toString());
        assertThat(code).as(out + err).isZero();
        assertThat(out).contains("    3  (2013-12-22T00:00, 2014-01-06T00:00]  incremental            3           6  "
                + "2 inserts, 1 update, 1 delete, 1 backdated insert");
        assertThat(out).containsPattern("CDC +\\S*cdc\\.db +414 +0 +0 +0  EQUAL")
                .containsPattern("watermark +\\S*watermark\\.db +414 +1 +1 +0  DIFFERENT \\(the counts match: 414 = 414\\)")
                .contains("watermark  missing  415  backdated or late row")
                .contains("watermark  surplus   20  delete")
                .contains("CDC target equals the source. Every difference is explained by a step of the scenario.");

        JsonNode j = JSON.readTree(json.toFile());
        assertThat(j.get("cdcEqual").asBoolean()).isTrue();
        assertThat(j.get("runs")).extracting(n -> n.get("rowsCopied").asLong()).containsExactly(412L, 0L, 3L);
        assertThat(j.get("watermark").get("missing").get(0).get("cause").asText()).isEqualTo("backdated or late row");

        String html = Files.readString(dir.resolve("out").resolve("report.html"));
        assertThat(html).contains("<svg", "Rows copied per run", "Differences per mode").doesNotContain("<script", " src=", "href=");
        assertThat(dir.resolve("out").resolve("cdc.db")).exists();
        assertThat(dir.resolve("out").resolve("watermark.db")).exists();
        assertThat(tempFolders("tidemark-compare-")).as("temporary folders left behind (another process may remove its own meanwhile)").isSubsetOf(before);
    }

    @Test
    void jsonToStdoutKeepsStdoutParseable_randomScenarioBySeed() throws Exception {
        int code = tidemark("compare", "--scenario", "random", "--seed", "3", "--kafka", TestInfrastructure.kafkaBootstrap(),
                "--out", dir.toString(), "--json", "-");
        assertThat(code).as(err).isZero();
        JsonNode j = JSON.readTree(out);
        assertThat(j.get("scenario").asText()).isEqualTo("random");
        assertThat(j.get("seed").asLong()).isEqualTo(3);
        assertThat(j.get("cdcEqual").asBoolean()).isTrue();
        assertThat(j.get("unexplained").asInt()).isZero();
        assertThat(err).as("the narration and table go to stderr").contains("Scenario random: random scenario, seed 3");
    }

    @Test
    void demoRunsCompareOnTheInvoicesAndSaysWhereTheFilesAre() throws Exception {
        Set<Path> before = tempFolders("tidemark-demo-");
        Path demo = dir.resolve("tidemark-demo");
        int code = tidemark("demo", "--kafka", TestInfrastructure.kafkaBootstrap(), "--out", demo.toString());
        assertThat(code).as(out + err).isZero();
        assertThat(out).startsWith("Tidemark demo: the invoices scenario through CDC")
                .contains("Scenario invoices: Chinook-shaped Invoice table, 412 rows 2009-01-01 … 2013-12-22, 3 runs")
                .contains("DIFFERENT (the counts match: 414 = 414)")
                .contains("Files: " + demo.resolve("cdc.db") + " (CDC target), " + demo.resolve("watermark.db")
                        + " (watermark target), " + demo.resolve("report.html") + " (report)");
        assertThat(demo.resolve("cdc.db")).exists();
        assertThat(demo.resolve("watermark.db")).exists();
        assertThat(demo.resolve("report.html")).exists();
        assertThat(tempFolders("tidemark-demo-")).as("temporary folders left behind (another process may remove its own meanwhile)").isSubsetOf(before);
    }

    @Test
    void anUnknownScenarioIsBadUsage() {
        assertThat(tidemark("compare", "--scenario", "orders")).isEqualTo(2);
        assertThat(err).contains("unknown scenario 'orders' (expected invoices or random)");
    }

    private static Set<Path> tempFolders(String prefix) throws Exception {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).collect(Collectors.toSet());
        }
    }
}
