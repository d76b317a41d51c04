package dev.tidemark.tests.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The PromQL this repository ships: every {@code expr} of the Grafana dashboard {@code deploy/grafana/tidemark.json}
 * (panel targets and the template variables' queries) and of {@code deploy/prometheus/alerts.yml}, and the metric
 * names they select ({@link PromQlNames}). Test helper.
 */
public final class DeployedQueries {
    /** Series Prometheus adds to every scrape itself; the endpoint never serves them. */
    public static final Set<String> SYNTHETIC = Set.of("up");

    private DeployedQueries() {
    }

    public static Path dashboard() {
        return ComposeProject.find().root().resolve("deploy/grafana/tidemark.json");
    }

    public static Path alerts() {
        return ComposeProject.find().root().resolve("deploy/prometheus/alerts.yml");
    }

    /** Each panel target's {@code expr} and each query variable's query, in file order. */
    public static List<String> dashboardQueries() throws IOException {
        JsonNode d = new ObjectMapper().readTree(dashboard().toFile());
        List<String> out = new ArrayList<>();
        for (JsonNode panel : d.path("panels")) {
            panel.path("targets").forEach(t -> out.add(t.path("expr").asText()));
        }
        for (JsonNode v : d.path("templating").path("list")) {
            if ("query".equals(v.path("type").asText())) {
                out.add(v.path("query").path("query").asText());
            }
        }
        return out;
    }

    /** Each rule's {@code expr}, in file order. */
    public static List<String> alertQueries() throws IOException {
        JsonNode rules = new ObjectMapper(new YAMLFactory()).readTree(alerts().toFile());
        List<String> out = new ArrayList<>();
        for (JsonNode group : rules.path("groups")) {
            group.path("rules").forEach(r -> out.add(r.path("expr").asText()));
        }
        return out;
    }

    /** The metric names of both files' queries, without {@link #SYNTHETIC}. */
    public static Set<String> servedNames() throws IOException {
        Set<String> names = new TreeSet<>();
        for (String q : dashboardQueries()) {
            names.addAll(PromQlNames.of(q));
        }
        for (String q : alertQueries()) {
            names.addAll(PromQlNames.of(q));
        }
        names.removeAll(SYNTHETIC);
        return names;
    }

    /** The names of {@code wanted} that no sample line of {@code scrape} (Prometheus text format) carries. */
    public static Set<String> missingFrom(String scrape, Set<String> wanted) {
        Set<String> served = new TreeSet<>();
        scrape.lines().filter(l -> !l.startsWith("#") && !l.isBlank())
                .forEach(l -> served.add(l.split("[{ ]", 2)[0]));
        Set<String> missing = new TreeSet<>(wanted);
        missing.removeAll(served);
        return missing;
    }
}
