package dev.tidemark.compare;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders a {@link CompareResult} three ways: a plain-text table for the terminal, JSON for machines, and a
 * self-contained HTML page (inline CSS and SVG bar charts; no scripts, nothing fetched) to keep next to the targets.
 */
public final class CompareReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String WATERMARK_COLOUR = "#3b6ea5";
    private static final String CDC_COLOUR = "#e08a2c";
    private static final String[] KIND_COLOURS = {"#c0392b", "#8e44ad", "#16a085"};

    private CompareReport() {
    }

    // ---------------------------------------------------------------- text

    /** The table the command prints; file names relative to {@code cwd} when under it. */
    public static String text(CompareResult r, Path cwd) {
        StringBuilder b = new StringBuilder();
        b.append("Scenario ").append(r.scenario()).append(": ").append(r.description()).append('\n');
        List<String[]> runRows = new ArrayList<>();
        runRows.add(new String[] {"run", "watermark window", "mode", "rows copied", "CDC events", "changes before the run"});
        for (CompareResult.Run run : r.runs()) {
            runRows.add(new String[] {Integer.toString(run.run()), run.window(), run.mode(), Long.toString(run.rowsCopied()),
                    Long.toString(run.cdcEvents()), run.changeSummary()});
        }
        table(b, runRows, new boolean[] {true, false, false, true, true, false});
        b.append('\n');
        long sourceRows = r.cdc().sourceRows();
        List<String[]> targetRows = new ArrayList<>();
        targetRows.add(new String[] {"target", "file", "rows", "missing", "surplus", "changed",
                "vs source (" + sourceRows + " rows; by key + row checksum)"});
        for (CompareResult.Target t : List.of(r.cdc(), r.watermark())) {
            String verdict = t.equal() ? "EQUAL" : "DIFFERENT" + (t.targetRows() == t.sourceRows()
                    ? " (the counts match: " + t.targetRows() + " = " + t.sourceRows() + ")" : "");
            targetRows.add(new String[] {label(t.mode()), display(t.file(), cwd), Long.toString(t.targetRows()),
                    Integer.toString(t.missing().size()), Integer.toString(t.surplus().size()), Integer.toString(t.changed().size()), verdict});
        }
        table(b, targetRows, new boolean[] {false, false, true, true, true, true, false});
        List<String[]> diffs = new ArrayList<>();
        for (CompareResult.Target t : List.of(r.cdc(), r.watermark())) {
            for (Difference d : t.differences()) {
                diffs.add(new String[] {label(t.mode()), d.kind().label(), d.key(), d.cause().label(), d.detail()});
            }
        }
        if (!diffs.isEmpty()) {
            b.append("\nDifferences, each with its cause:\n");
            diffs.add(0, new String[] {"target", "kind", "key", "cause", "explained by"});
            table(b, diffs, new boolean[] {false, false, true, false, false});
        }
        List<Difference> unexplained = r.unexplained();
        b.append('\n').append(r.cdcEqual() ? "CDC target equals the source." : "CDC target DIFFERS from the source.")
                .append(' ').append(unexplained.isEmpty() ? "Every difference is explained by a step of the scenario."
                        : unexplained.size() + " difference" + (unexplained.size() == 1 ? " is" : "s are") + " UNEXPLAINED.")
                .append('\n');
        for (String w : r.warnings()) {
            b.append("warning: ").append(w).append('\n');
        }
        return b.toString();
    }

    private static String label(String mode) {
        return mode.equals("cdc") ? "CDC" : "watermark";
    }

    private static String display(String file, Path cwd) {
        Path p = Path.of(file);
        if (cwd != null && p.startsWith(cwd.toAbsolutePath())) {
            return cwd.toAbsolutePath().relativize(p).toString();
        }
        return file;
    }

    private static void table(StringBuilder b, List<String[]> rows, boolean[] right) {
        int[] width = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].codePointCount(0, row[i].length()));
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder(" ");
            for (int i = 0; i < row.length; i++) {
                String pad = " ".repeat(width[i] - row[i].codePointCount(0, row[i].length()));
                boolean last = i == row.length - 1;
                line.append(' ').append(right[i] ? pad + row[i] : row[i] + (last ? "" : pad)).append(last ? "" : " ");
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
    }

    // ---------------------------------------------------------------- JSON

    /** The result as JSON: every field of {@link CompareResult}, plus {@code cdcEqual}, {@code equal} per target and the unexplained count. */
    public static String json(CompareResult r) {
        ObjectNode root = JSON.valueToTree(r);
        root.put("cdcEqual", r.cdcEqual());
        root.put("unexplained", r.unexplained().size());
        ((ObjectNode) root.get("cdc")).put("equal", r.cdc().equal());
        ((ObjectNode) root.get("watermark")).put("equal", r.watermark().equal());
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the compare result as JSON", e);
        }
    }

    // ---------------------------------------------------------------- HTML

    /** A self-contained HTML page: figures, charts (inline SVG) and every difference with its cause. */
    public static String html(CompareResult r, Path cwd) {
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Tidemark compare: ")
                .append(esc(r.scenario())).append("</title>\n<style>\n")
                .append("body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:70em;color:#222;padding:0 1em}\n")
                .append("h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em}\n")
                .append("table{border-collapse:collapse;margin:.5em 0}th,td{border-bottom:1px solid #ddd;padding:.3em .7em;text-align:left;vertical-align:top}\n")
                .append("td.n{text-align:right;font-variant-numeric:tabular-nums}.equal{color:#1e7b34;font-weight:600}.different{color:#b03a2e;font-weight:600}\n")
                .append(".charts{display:flex;flex-wrap:wrap;gap:2em}.note{color:#555}code{background:#f3f3f3;padding:0 .2em}\n")
                .append("</style></head><body>\n");
        h.append("<h1>Tidemark compare: CDC vs watermark polling</h1>\n<p>Scenario <b>").append(esc(r.scenario())).append("</b>: ")
                .append(esc(r.description())).append(". Source table <code>").append(esc(r.table())).append("</code>.</p>\n");
        h.append("<p class=\"").append(r.cdcEqual() ? "equal" : "different").append("\">")
                .append(r.cdcEqual() ? "The CDC target equals the source." : "The CDC target differs from the source.")
                .append(' ').append(r.unexplained().isEmpty() ? "Every difference is explained by a step of the scenario."
                        : esc(r.unexplained().size() + " difference(s) are unexplained.")).append("</p>\n");

        h.append("<div class=\"charts\">\n");
        List<String> runGroups = r.runs().stream().map(x -> "run " + x.run()).toList();
        long[][] moved = new long[r.runs().size()][];
        for (int i = 0; i < moved.length; i++) {
            moved[i] = new long[] {r.runs().get(i).rowsCopied(), r.runs().get(i).cdcEvents()};
        }
        h.append(barChart("Rows copied per run", "rows or events", "run", runGroups, List.of("watermark rows copied", "CDC events"),
                List.of(WATERMARK_COLOUR, CDC_COLOUR), moved));
        List<CompareResult.Target> targets = List.of(r.cdc(), r.watermark());
        long[][] diffs = new long[2][];
        for (int i = 0; i < 2; i++) {
            CompareResult.Target t = targets.get(i);
            diffs[i] = new long[] {t.missing().size(), t.surplus().size(), t.changed().size()};
        }
        h.append(barChart("Differences per mode", "keys", "mode (target)", List.of("CDC", "watermark"), List.of("missing", "surplus", "changed"),
                List.of(KIND_COLOURS), diffs));
        Map<String, Long> byCause = new LinkedHashMap<>();
        for (Cause c : Cause.values()) {
            long n = r.watermark().differences().stream().filter(d -> d.cause() == c).count()
                    + r.cdc().differences().stream().filter(d -> d.cause() == c).count();
            if (n > 0) {
                byCause.put(c.label(), n);
            }
        }
        if (!byCause.isEmpty()) {
            h.append(horizontalBarChart("Differences by cause", byCause, KIND_COLOURS[0]));
        }
        h.append("</div>\n");

        h.append("<h2>Runs</h2>\n<table><tr><th>run</th><th>watermark window</th><th>mode</th><th>rows copied</th><th>CDC events</th><th>changes before the run</th></tr>\n");
        for (CompareResult.Run run : r.runs()) {
            h.append("<tr><td class=\"n\">").append(run.run()).append("</td><td><code>").append(esc(run.window())).append("</code></td><td>")
                    .append(esc(run.mode())).append("</td><td class=\"n\">").append(run.rowsCopied()).append("</td><td class=\"n\">")
                    .append(run.cdcEvents()).append("</td><td>");
            if (run.changes().isEmpty()) {
                h.append("—");
            } else {
                h.append(esc(String.join("; ", run.changes())));
            }
            h.append("</td></tr>\n");
        }
        h.append("</table>\n<p class=\"note\">CDC events are counted as captured between runs (the first: the snapshot); "
                + "a delete is a delete event plus a tombstone.</p>\n");

        h.append("<h2>Targets against the source (by primary key and row checksum)</h2>\n<table><tr><th>target</th><th>file</th>"
                + "<th>source rows</th><th>target rows</th><th>missing</th><th>surplus</th><th>changed</th><th>result</th></tr>\n");
        for (CompareResult.Target t : targets) {
            h.append("<tr><td>").append(label(t.mode())).append("</td><td><code>").append(esc(display(t.file(), cwd)))
                    .append("</code></td><td class=\"n\">").append(t.sourceRows()).append("</td><td class=\"n\">").append(t.targetRows())
                    .append("</td><td class=\"n\">").append(t.missing().size()).append("</td><td class=\"n\">").append(t.surplus().size())
                    .append("</td><td class=\"n\">").append(t.changed().size()).append("</td><td class=\"")
                    .append(t.equal() ? "equal\">EQUAL" : "different\">DIFFERENT").append("</td></tr>\n");
        }
        h.append("</table>\n");

        h.append("<h2>Differences and their causes</h2>\n");
        List<Difference> all = new ArrayList<>();
        all.addAll(r.cdc().differences());
        all.addAll(r.watermark().differences());
        if (all.isEmpty()) {
            h.append("<p>None.</p>\n");
        } else {
            h.append("<table><tr><th>target</th><th>kind</th><th>key</th><th>cause</th><th>explained by</th></tr>\n");
            for (CompareResult.Target t : targets) {
                for (Difference d : t.differences()) {
                    h.append("<tr><td>").append(label(t.mode())).append("</td><td>").append(d.kind().label()).append("</td><td class=\"n\">")
                            .append(esc(d.key())).append("</td><td>").append(esc(d.cause().label())).append("</td><td>")
                            .append(esc(d.detail())).append("</td></tr>\n");
                }
            }
            h.append("</table>\n");
        }
        if (!r.warnings().isEmpty()) {
            h.append("<h2>Warnings</h2>\n<ul>\n");
            r.warnings().forEach(w -> h.append("<li>").append(esc(w)).append("</li>\n"));
            h.append("</ul>\n");
        }
        h.append("<p class=\"note\">Causes: <i>backdated or late row</i> (stamped below a watermark already stored), "
                + "<i>delete</i> (a deleted row cannot be selected), <i>update that did not touch the cursor</i>, "
                + "<i>equal-timestamp boundary</i> (stamped exactly at the stored watermark after the run; windows exclude it), "
                + "<i>long transaction</i> (stamped when it began, committed after a run read past the stamp).</p>\n");
        h.append("</body></html>\n");
        return h.toString();
    }

    /**
     * A grouped vertical bar chart as inline SVG: a y axis on the {@link ChartScale} (log-like, ticks 0, 1, 10, 100, …)
     * titled {@code yTitle}, the value on each bar (0 included), group names and {@code xTitle} under the x axis, and a
     * legend.
     */
    static String barChart(String title, String yTitle, String xTitle, List<String> groups, List<String> series, List<String> colours,
                           long[][] values) {
        int barW = 26;
        int gap = 18;
        int plotH = 180;
        int left = 62;
        int top = 40;
        int groupW = series.size() * barW + gap;
        int width = Math.max(left + groups.size() * groupW + 20, 280);
        int legendH = 18 * series.size();
        int height = top + plotH + 66 + legendH;
        long max = 0;
        for (long[] g : values) {
            for (long v : g) {
                max = Math.max(max, v);
            }
        }
        ChartScale scale = new ChartScale(max, plotH);
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height).append("\" font-family=\"sans-serif\" font-size=\"11\">")
                .append("<title>").append(esc(title)).append("</title>")
                .append("<text x=\"").append(left).append("\" y=\"18\" font-size=\"14\" font-weight=\"bold\">").append(esc(title)).append("</text>");
        int baseY = top + plotH;
        for (long t : scale.ticks()) {
            int y = baseY - scale.height(t);
            s.append("<line x1=\"").append(left - 4).append("\" y1=\"").append(y).append("\" x2=\"").append(width - 10)
                    .append("\" y2=\"").append(y).append("\" stroke=\"").append(t == 0 ? "#888" : "#e4e4e4").append("\"/>")
                    .append("<text x=\"").append(left - 7).append("\" y=\"").append(y + 4).append("\" text-anchor=\"end\">").append(t)
                    .append("</text>");
        }
        s.append("<line x1=\"").append(left).append("\" y1=\"").append(top - 6).append("\" x2=\"").append(left).append("\" y2=\"")
                .append(baseY).append("\" stroke=\"#888\"/>");
        s.append("<text transform=\"translate(14,").append(top + plotH / 2).append(") rotate(-90)\" text-anchor=\"middle\">")
                .append(esc(yTitle + " (log scale)")).append("</text>");
        for (int g = 0; g < groups.size(); g++) {
            int gx = left + g * groupW + gap / 2;
            for (int i = 0; i < series.size(); i++) {
                long v = values[g][i];
                int h = scale.height(v);
                int x = gx + i * barW;
                s.append("<rect x=\"").append(x).append("\" y=\"").append(baseY - h).append("\" width=\"").append(barW - 4)
                        .append("\" height=\"").append(h).append("\" fill=\"").append(colours.get(i % colours.size()))
                        .append("\"><title>").append(esc(groups.get(g) + ", " + series.get(i) + ": " + v)).append("</title></rect>");
                s.append("<text x=\"").append(x + (barW - 4) / 2).append("\" y=\"").append(baseY - h - 4)
                        .append("\" text-anchor=\"middle\">").append(v).append("</text>");
            }
            s.append("<text x=\"").append(gx + series.size() * barW / 2).append("\" y=\"").append(baseY + 16)
                    .append("\" text-anchor=\"middle\">").append(esc(groups.get(g))).append("</text>");
        }
        s.append("<text x=\"").append(left + (width - 10 - left) / 2).append("\" y=\"").append(baseY + 34)
                .append("\" text-anchor=\"middle\" fill=\"#555\">").append(esc(xTitle)).append("</text>");
        for (int i = 0; i < series.size(); i++) {
            int y = baseY + 56 + 18 * i;
            s.append("<rect x=\"").append(left).append("\" y=\"").append(y - 10).append("\" width=\"12\" height=\"12\" fill=\"")
                    .append(colours.get(i % colours.size())).append("\"/><text x=\"").append(left + 18).append("\" y=\"").append(y)
                    .append("\">").append(esc(series.get(i))).append("</text>");
        }
        s.append("</svg>\n");
        return s.toString();
    }

    /** One horizontal bar per label, as inline SVG. */
    static String horizontalBarChart(String title, Map<String, Long> values, String colour) {
        int labelW = 230;
        int plotW = 220;
        int rowH = 24;
        int top = 34;
        int width = labelW + plotW + 50;
        int height = top + rowH * values.size() + 10;
        long max = Math.max(1, values.values().stream().mapToLong(Long::longValue).max().orElse(1));
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height).append("\" font-family=\"sans-serif\" font-size=\"11\">")
                .append("<title>").append(esc(title)).append("</title>")
                .append("<text x=\"0\" y=\"18\" font-size=\"14\" font-weight=\"bold\">").append(esc(title)).append("</text>");
        int i = 0;
        for (Map.Entry<String, Long> e : values.entrySet()) {
            int y = top + i++ * rowH;
            int w = (int) Math.max(2, Math.round(plotW * (double) e.getValue() / max));
            s.append("<text x=\"").append(labelW - 6).append("\" y=\"").append(y + 14).append("\" text-anchor=\"end\">")
                    .append(esc(e.getKey())).append("</text><rect x=\"").append(labelW).append("\" y=\"").append(y + 3)
                    .append("\" width=\"").append(w).append("\" height=\"16\" fill=\"").append(colour).append("\"/><text x=\"")
                    .append(labelW + w + 5).append("\" y=\"").append(y + 15).append("\">").append(e.getValue()).append("</text>");
        }
        s.append("</svg>\n");
        return s.toString();
    }

    /** Text as HTML content or attribute value: {@code & < > " '} replaced; null is empty. */
    public static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
