package dev.tidemark.cli.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class StatusPageTest {
    private static StatusView view(String table, String reason) {
        return new StatusView("orders<1>", "run", "db:5432 (jdbc:postgresql://db:5432/app)", "/data/replica.db (jdbc:sqlite:/data/replica.db)",
                "tidemark_orders", new Health(true, false, reason),
                List.of(new StatusView.TableRow(table, "orders.public.t", 7, 5)),
                Map.of("orders.public.t-0", new PartitionLag(2, 1.25)), OptionalLong.of(3 * 1024 * 1024 + 512),
                List.of(new WatermarkRuns.Run("public.Invoice", "2026-11-30T21:00:00Z", "incremental", "done", 3)),
                Optional.of(new LastReconcile.Result("2026-11-30T21:05:00Z", List.of(new LastReconcile.Table("public.t", 1, 0, 2)))),
                Map.of("slot", "permission denied for <pg_replication_slots>"));
    }

    @Test
    void everyValueIsEscaped() {
        String html = StatusPage.render(view("public.\"<script>alert('x')</script>\"", "sink stopped: a & b <dropped>"));
        assertThat(html).doesNotContain("<script>").doesNotContain("orders<1>").doesNotContain("<dropped>").doesNotContain("<pg_replication_slots>")
                .contains("public.&quot;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;")
                .contains("sink stopped: a &amp; b &lt;dropped&gt;")
                .contains("Tidemark pipeline <span id=\"pipeline\">orders&lt;1&gt;</span>");
    }

    @Test
    void showsTablesLagWalRunsReconcileAndRefreshesItselfWithoutScriptsOrAssets() {
        String html = StatusPage.render(view("public.t", "sink not streaming yet: no partition assigned yet"));
        assertThat(html).contains("<meta http-equiv=\"refresh\" content=\"5\">")
                .doesNotContain("<script").doesNotContain("src=").doesNotContain("http://").doesNotContain("https://")
                .contains("<td class=\"n\">7</td><td class=\"n\">5</td>")
                .contains("<td class=\"n lag-records\">2</td><td class=\"n lag-seconds\">1.3</td>")
                .contains("<span id=\"wal\">3.0 MiB</span>")
                .contains("<td>public.Invoice</td><td>2026-11-30T21:00:00Z</td><td>incremental</td><td>done</td><td class=\"n\">3</td>")
                .contains("<td>public.t</td><td class=\"n\">1</td><td class=\"n\">0</td><td class=\"n\">2</td>")
                .contains("<span class=\"DOWN\">DOWN</span>");
    }

    @Test
    void unknownLagAndNothingYetAreSaidInWords() {
        StatusView v = view("public.t", "streaming");
        StatusView empty = new StatusView(v.pipeline(), v.command(), v.source(), v.target(), v.slot(), new Health(true, true, "streaming"),
                v.tables(), Map.of("orders.public.t-0", new PartitionLag(Double.NaN, Double.NaN)), OptionalLong.empty(), List.of(),
                Optional.empty(), Map.of());
        assertThat(StatusPage.render(empty)).contains("<td class=\"n lag-records\">unknown</td>").contains("<span id=\"wal\">unknown</span>")
                .contains("none recorded in the target").contains("none yet").contains("<span class=\"UP\">UP</span>");
    }
}
