package dev.tidemark.compare;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompareReportTest {
    private static final Path CWD = Path.of("/work/x");

    /** The invoices recipe's outcome, as CompareRun reports it. */
    static CompareResult invoices() {
        InvoicesScenario s = new InvoicesScenario();
        CauseAttribution a = new CauseAttribution(s);
        List<String> changes = s.stepsBefore(3).stream().map(ScenarioStep::describe).toList();
        return new CompareResult("invoices", null, s.describe(), "public.Invoice", List.of(
                new CompareResult.Run(1, List.of(), "—", "(-∞, 2013-12-22T00:00]", "initial", 412, 412, "2013-12-22T00:00"),
                new CompareResult.Run(2, List.of(), "—", "(2013-12-22T00:00, 2013-12-22T00:00]", "unchanged", 0, 0, "2013-12-22T00:00"),
                new CompareResult.Run(3, changes, ScenarioStep.summarize(s.stepsBefore(3)), "(2013-12-22T00:00, 2014-01-06T00:00]", "incremental", 3, 6, "2014-01-06T00:00")),
                new CompareResult.Target("cdc", "/work/x/out/cdc.db", 414, 414, List.of(), List.of(), List.of()),
                new CompareResult.Target("watermark", "/work/x/out/watermark.db", 414, 414,
                        List.of(a.explainWatermark("415", Difference.Kind.MISSING)),
                        List.of(a.explainWatermark("20", Difference.Kind.SURPLUS)), List.of()),
                List.of());
    }

    @Test
    void theTableShowsEachRunEachTargetAndEveryDifferenceWithItsCause() {
        String text = CompareReport.text(invoices(), CWD);
        assertThat(text).contains(
                "    1  (-∞, 2013-12-22T00:00]                initial              412         412  —\n",
                "    3  (2013-12-22T00:00, 2014-01-06T00:00]  incremental            3           6  2 inserts, 1 update, 1 delete, 1 backdated insert\n",
                "  CDC        out/cdc.db         414        0        0        0  EQUAL\n",
                "  watermark  out/watermark.db   414        1        1        0  DIFFERENT (the counts match: 414 = 414)\n",
                "  watermark  missing  415  backdated or late row  before run 3: insert 415 backdated (LastModified 2013-06-01T00:00)\n",
                "  watermark  surplus   20  delete                 before run 3: delete 20\n",
                "CDC target equals the source. Every difference is explained by a step of the scenario.\n");
    }

    @Test
    void unexplainedDifferencesAreCalledOut() {
        CompareResult r = invoices();
        CompareResult bad = new CompareResult(r.scenario(), null, r.description(), r.table(), r.runs(),
                new CompareResult.Target("cdc", "/elsewhere/cdc.db", 414, 413, List.of(CauseAttribution.explainCdc("415", Difference.Kind.MISSING)),
                        List.of(), List.of()), r.watermark(), List.of("the CDC target did not equal the source within 60 s"));
        String text = CompareReport.text(bad, CWD);
        assertThat(text).contains("  CDC        /elsewhere/cdc.db   413        1        0        0  DIFFERENT\n")
                .contains("  CDC        missing  415  unexplained")
                .contains("CDC target DIFFERS from the source. 1 difference is UNEXPLAINED.")
                .contains("warning: the CDC target did not equal the source within 60 s");
        assertThat(bad.cdcEqual()).isFalse();
        assertThat(bad.unexplained()).extracting(Difference::key).containsExactly("415");
    }

    @Test
    void jsonCarriesEveryFigureAndCause() throws Exception {
        JsonNode j = new ObjectMapper().readTree(CompareReport.json(invoices()));
        assertThat(j.get("scenario").asText()).isEqualTo("invoices");
        assertThat(j.get("cdcEqual").asBoolean()).isTrue();
        assertThat(j.get("unexplained").asInt()).isZero();
        assertThat(j.get("runs")).extracting(n -> n.get("rowsCopied").asLong()).containsExactly(412L, 0L, 3L);
        assertThat(j.get("runs")).extracting(n -> n.get("cdcEvents").asLong()).containsExactly(412L, 0L, 6L);
        assertThat(j.get("runs").get(2).get("window").asText()).isEqualTo("(2013-12-22T00:00, 2014-01-06T00:00]");
        JsonNode wm = j.get("watermark");
        assertThat(wm.get("equal").asBoolean()).isFalse();
        assertThat(wm.get("targetRows").asLong()).isEqualTo(414);
        assertThat(wm.get("missing").get(0).get("key").asText()).isEqualTo("415");
        assertThat(wm.get("missing").get(0).get("kind").asText()).isEqualTo("missing");
        assertThat(wm.get("missing").get(0).get("cause").asText()).isEqualTo("backdated or late row");
        assertThat(wm.get("surplus").get(0).get("cause").asText()).isEqualTo("delete");
        assertThat(j.get("cdc").get("equal").asBoolean()).isTrue();
    }

    @Test
    void htmlIsSelfContainedWithChartsAndEscapesText() {
        String html = CompareReport.html(invoices(), CWD);
        assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
        assertThat(html).doesNotContain("<script", "<link", " src=", "href=", "url(", "@import");
        assertThat(html).contains("<svg", "Rows copied per run", "Differences per mode", "Differences by cause");
        assertThat(html).contains("<title>run 3, watermark rows copied: 3</title>", "<title>run 1, CDC events: 412</title>",
                "<title>watermark, missing: 1</title>", "<title>watermark, surplus: 1</title>");
        assertThat(html).contains("<td>watermark</td><td>missing</td><td class=\"n\">415</td><td>backdated or late row</td>");
        assertThat(html).contains("(-∞, 2013-12-22T00:00]").contains("Chinook-shaped Invoice table");
        assertThat(dev.tidemark.text.Html.escape("<a href='x'>&\"")).isEqualTo("&lt;a href=&#39;x&#39;&gt;&amp;&quot;");
    }

    /** Issue 12 item 11: on a linear scale the 3 rows of run 3 next to 412 were a 2-pixel bar; the diff chart had no axis. */
    @Test
    void smallCountsAreReadableOnALabelledLogScaleAndBothChartsHaveAxes() {
        String html = CompareReport.html(invoices(), CWD);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "height=\"(\\d+)\" fill=\"[^\"]+\"><title>run 3, watermark rows copied: 3</title>").matcher(html);
        assertThat(m.find()).as("the bar of run 3's 3 rows").isTrue();
        assertThat(Integer.parseInt(m.group(1))).as("pixels of the bar for 3 rows next to 412").isGreaterThanOrEqualTo(30);
        assertThat(html).contains("rows or events (log scale)", "keys (log scale)", "mode (target)", ">100</text>", ">1000</text>");
    }
}
