package dev.tidemark.compare;

import static dev.tidemark.compare.CompareReport.display;
import static dev.tidemark.compare.CompareReport.label;
import static dev.tidemark.text.Html.escape;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link CompareResult} as one self-contained HTML page: inline CSS, inline SVG charts ({@link SvgCharts}), no
 * script and nothing fetched. Every text that comes from the result goes through {@link dev.tidemark.text.Html#escape}.
 */
final class CompareHtml {
    private static final String WATERMARK_COLOUR = "#3b6ea5";
    private static final String CDC_COLOUR = "#e08a2c";
    private static final List<String> KIND_COLOURS = List.of("#c0392b", "#8e44ad", "#16a085");
    private static final String STYLE = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:70em;color:#222;padding:0 1em}\n"
            + "h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em}\n"
            + "table{border-collapse:collapse;margin:.5em 0}th,td{border-bottom:1px solid #ddd;padding:.3em .7em;text-align:left;vertical-align:top}\n"
            + "td.n{text-align:right;font-variant-numeric:tabular-nums}.equal{color:#1e7b34;font-weight:600}.different{color:#b03a2e;font-weight:600}\n"
            + ".charts{display:flex;flex-wrap:wrap;gap:2em}.note{color:#555}code{background:#f3f3f3;padding:0 .2em}\n";

    private CompareHtml() {
    }

    static String render(CompareResult r, Path cwd) {
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Tidemark compare: ")
                .append(escape(r.scenario())).append("</title>\n<style>\n").append(STYLE).append("</style></head><body>\n");
        h.append("<h1>Tidemark compare: CDC vs watermark polling</h1>\n<p>Scenario <b>").append(escape(r.scenario())).append("</b>: ")
                .append(escape(r.description())).append(". Source table <code>").append(escape(r.table())).append("</code>.</p>\n");
        h.append("<p class=\"").append(r.cdcEqual() ? "equal" : "different").append("\">")
                .append(r.cdcEqual() ? "The CDC target equals the source." : "The CDC target differs from the source.")
                .append(' ').append(r.unexplained().isEmpty() ? "Every difference is explained by a step of the scenario."
                        : escape(r.unexplained().size() + " difference(s) are unexplained.")).append("</p>\n");
        charts(h, r);
        runs(h, r);
        targets(h, r, cwd);
        differences(h, r);
        if (!r.warnings().isEmpty()) {
            h.append("<h2>Warnings</h2>\n<ul>\n");
            r.warnings().forEach(w -> h.append("<li>").append(escape(w)).append("</li>\n"));
            h.append("</ul>\n");
        }
        h.append("<p class=\"note\">Causes: <i>backdated or late row</i> (stamped below a watermark already stored), "
                + "<i>delete</i> (a deleted row cannot be selected), <i>update that did not touch the cursor</i>, "
                + "<i>equal-timestamp boundary</i> (stamped exactly at the stored watermark after the run; windows exclude it), "
                + "<i>long transaction</i> (stamped when it began, committed after a run read past the stamp).</p>\n");
        h.append("</body></html>\n");
        return h.toString();
    }

    /** What each run moved, the differences per mode and, when there are any, the differences by cause. */
    private static void charts(StringBuilder h, CompareResult r) {
        h.append("<div class=\"charts\">\n");
        List<String> runGroups = r.runs().stream().map(x -> "run " + x.run()).toList();
        long[][] moved = new long[r.runs().size()][];
        for (int i = 0; i < moved.length; i++) {
            moved[i] = new long[] {r.runs().get(i).rowsCopied(), r.runs().get(i).cdcEvents()};
        }
        h.append(SvgCharts.barChart("Rows copied per run", "rows or events", "run", runGroups, List.of("watermark rows copied", "CDC events"),
                List.of(WATERMARK_COLOUR, CDC_COLOUR), moved));
        List<CompareResult.Target> targets = List.of(r.cdc(), r.watermark());
        long[][] diffs = new long[2][];
        for (int i = 0; i < 2; i++) {
            CompareResult.Target t = targets.get(i);
            diffs[i] = new long[] {t.missing().size(), t.surplus().size(), t.changed().size()};
        }
        h.append(SvgCharts.barChart("Differences per mode", "keys", "mode (target)", List.of("CDC", "watermark"),
                List.of("missing", "surplus", "changed"), KIND_COLOURS, diffs));
        Map<String, Long> byCause = new LinkedHashMap<>();
        for (Cause c : Cause.values()) {
            long n = r.watermark().differences().stream().filter(d -> d.cause() == c).count()
                    + r.cdc().differences().stream().filter(d -> d.cause() == c).count();
            if (n > 0) {
                byCause.put(c.label(), n);
            }
        }
        if (!byCause.isEmpty()) {
            h.append(SvgCharts.horizontalBarChart("Differences by cause", byCause, KIND_COLOURS.get(0)));
        }
        h.append("</div>\n");
    }

    private static void runs(StringBuilder h, CompareResult r) {
        h.append("<h2>Runs</h2>\n<table><tr><th>run</th><th>watermark window</th><th>mode</th><th>rows copied</th><th>CDC events</th><th>changes before the run</th></tr>\n");
        for (CompareResult.Run run : r.runs()) {
            h.append("<tr><td class=\"n\">").append(run.run()).append("</td><td><code>").append(escape(run.window())).append("</code></td><td>")
                    .append(escape(run.mode())).append("</td><td class=\"n\">").append(run.rowsCopied()).append("</td><td class=\"n\">")
                    .append(run.cdcEvents()).append("</td><td>")
                    .append(run.changes().isEmpty() ? "—" : escape(String.join("; ", run.changes()))).append("</td></tr>\n");
        }
        h.append("</table>\n<p class=\"note\">CDC events are counted as captured between runs (the first: the snapshot); "
                + "a delete is a delete event plus a tombstone.</p>\n");
    }

    private static void targets(StringBuilder h, CompareResult r, Path cwd) {
        h.append("<h2>Targets against the source (by primary key and row checksum)</h2>\n<table><tr><th>target</th><th>file</th>"
                + "<th>source rows</th><th>target rows</th><th>missing</th><th>surplus</th><th>changed</th><th>result</th></tr>\n");
        for (CompareResult.Target t : List.of(r.cdc(), r.watermark())) {
            h.append("<tr><td>").append(label(t.mode())).append("</td><td><code>").append(escape(display(t.file(), cwd)))
                    .append("</code></td><td class=\"n\">").append(t.sourceRows()).append("</td><td class=\"n\">").append(t.targetRows())
                    .append("</td><td class=\"n\">").append(t.missing().size()).append("</td><td class=\"n\">").append(t.surplus().size())
                    .append("</td><td class=\"n\">").append(t.changed().size()).append("</td><td class=\"")
                    .append(t.equal() ? "equal\">EQUAL" : "different\">DIFFERENT").append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    private static void differences(StringBuilder h, CompareResult r) {
        h.append("<h2>Differences and their causes</h2>\n");
        if (r.cdc().differences().isEmpty() && r.watermark().differences().isEmpty()) {
            h.append("<p>None.</p>\n");
            return;
        }
        h.append("<table><tr><th>target</th><th>kind</th><th>key</th><th>cause</th><th>explained by</th></tr>\n");
        for (CompareResult.Target t : List.of(r.cdc(), r.watermark())) {
            for (Difference d : t.differences()) {
                h.append("<tr><td>").append(label(t.mode())).append("</td><td>").append(d.kind().label()).append("</td><td class=\"n\">")
                        .append(escape(d.key())).append("</td><td>").append(escape(d.cause().label())).append("</td><td>")
                        .append(escape(d.detail())).append("</td></tr>\n");
            }
        }
        h.append("</table>\n");
    }
}
