package dev.tidemark.tests.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/grafana/tidemark.json} parses as a Grafana dashboard whose every panel queries Prometheus, and
 * {@link PromQlNames} reads metric names out of PromQL the way the dashboard and the alerts use it. That each name is
 * served is checked against a real scrape by {@code ScheduledReconcileIT}.
 */
class DashboardFileTest {
    @Test
    void everyPanelHasAPrometheusQueryAndAPlaceOnTheGrid() throws Exception {
        JsonNode d = new ObjectMapper().readTree(DeployedQueries.dashboard().toFile());
        assertThat(d.path("uid").asText()).isEqualTo("tidemark");
        List<String> titles = new ArrayList<>();
        for (JsonNode p : d.path("panels")) {
            titles.add(p.path("title").asText());
            assertThat(p.path("targets")).as(p.path("title").asText()).isNotEmpty();
            p.path("targets").forEach(t -> assertThat(t.path("expr").asText()).as(p.path("title").asText()).isNotBlank());
            assertThat(p.path("gridPos").path("w").asInt()).as(p.path("title").asText()).isPositive();
            assertThat(p.path("datasource").path("uid").asText()).isEqualTo("${datasource}");
        }
        assertThat(titles).contains("Captured and applied per second", "Consumer lag (records)", "Slot WAL retained", "Reconcile drift",
                "Last complete reconcile", "JVM heap").doesNotHaveDuplicates();
        assertThat(DeployedQueries.servedNames()).as("names the dashboard and the alerts query").contains("tidemark_events_applied_total",
                "tidemark_reconcile_drift_keys", "jvm_memory_used_bytes").allMatch(n -> n.matches("(tidemark|jvm|process)_[a-z_]+"));
    }

    @Test
    void metricNamesOutOfPromQl() {
        assertThat(PromQlNames.of("sum by (table) (rate(tidemark_events_applied_total{pipeline=~\"$pipeline\"}[$__rate_interval]))"))
                .containsExactly("tidemark_events_applied_total");
        assertThat(PromQlNames.of("histogram_quantile(0.99, sum by (le) (rate(a_bucket{x=\"y\"}[5m]))) > bool 1e9 and on (slot) b offset 5m"))
                .containsExactly("a_bucket", "b");
        assertThat(PromQlNames.of("time() - tidemark_reconcile_last_success_timestamp_seconds > 2 * 3600"))
                .containsExactly("tidemark_reconcile_last_success_timestamp_seconds");
        assertThat(PromQlNames.of("label_values(tidemark_build_info, pipeline)")).containsExactly("tidemark_build_info");
        assertThat(PromQlNames.of("up{job=\"tidemark\"} == 0")).isEqualTo(Set.of("up"));
    }

    @Test
    void aNameIsMissingUnlessASampleLineCarriesIt() {
        String scrape = "# HELP a_total x\n# TYPE a_total counter\na_total{pipeline=\"p\"} 1.0\nb 2.0\n";
        assertThat(DeployedQueries.missingFrom(scrape, Set.of("a_total", "b", "c", "x"))).containsExactly("c", "x");
    }
}
