package dev.tidemark.cli.observability;

import static dev.tidemark.text.Html.escape;

import java.util.Locale;
import java.util.Map;

/**
 * Renders {@link StatusView} as one self-contained HTML page (pure): inline style, no script and no external asset;
 * it reloads itself every {@value #REFRESH_SECONDS} s ({@code <meta http-equiv="refresh">}). Every value is
 * HTML-escaped ({@link dev.tidemark.text.Html#escape}, the escaping every page uses).
 */
public final class StatusPage {
    static final int REFRESH_SECONDS = 5;

    private StatusPage() {
    }

    public static String render(StatusView v) {
        StringBuilder h = new StringBuilder(4096);
        head(h, v);
        tables(h, v);
        lag(h, v);
        watermarkRuns(h, v);
        reconcile(h, v);
        if (!v.problems().isEmpty()) {
            h.append("<h2>Probes that failed</h2><ul id=\"problems\">");
            v.problems().forEach((k, why) -> h.append("<li>").append(escape(k)).append(": ").append(escape(why)).append("</li>"));
            h.append("</ul>\n");
        }
        h.append("<p><small><a href=\"/metrics\">/metrics</a> · <a href=\"/health\">/health</a></small></p>\n</body></html>\n");
        return h.toString();
    }

    /** The document head with its style, the pipeline's name and endpoints, and its health. */
    private static void head(StringBuilder h, StatusView v) {
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta http-equiv=\"refresh\" content=\"").append(REFRESH_SECONDS).append("\">")
                .append("<title>Tidemark ").append(escape(v.pipeline())).append("</title><style>")
                .append("body{font-family:system-ui,sans-serif;margin:1em 1.5em;color:#1b1f24}")
                .append("h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.15em;margin:.9em 0 .3em}p{margin:.3em 0}")
                .append("table{border-collapse:collapse;margin:.3em 0 .6em}th,td{border:1px solid #ccd;padding:.25em .6em;text-align:left}")
                .append("th{background:#eef1f5}td.n{text-align:right;font-variant-numeric:tabular-nums}")
                .append(".UP{color:#11722b;font-weight:bold}.DOWN{color:#b3261e;font-weight:bold}.DEGRADED{color:#9a6700;font-weight:bold}")
                .append("small{color:#57606a}")
                .append("</style></head><body>\n");
        h.append("<h1>Tidemark pipeline <span id=\"pipeline\">").append(escape(v.pipeline())).append("</span></h1>\n");
        h.append("<p><small>tidemark ").append(escape(v.command())).append(" · source ").append(escape(v.source()))
                .append(" · slot ").append(escape(v.slot())).append(" · target ").append(escape(v.target()))
                .append(" · refreshes every ").append(REFRESH_SECONDS).append(" s</small></p>\n");
        Health health = v.health();
        h.append("<h2>Health</h2><p id=\"health\"><span class=\"").append(health.status()).append("\">").append(health.status())
                .append("</span> — live: ").append(health.live()).append(", ready: ").append(health.ready())
                .append(", degraded: ").append(health.degraded())
                .append(" — <span id=\"health-reason\">").append(escape(health.reason())).append("</span></p>\n");
    }

    private static void tables(StringBuilder h, StatusView v) {
        h.append("<h2>Tables</h2><table id=\"tables\"><thead><tr><th>table</th><th>topic</th><th>captured</th><th>applied</th></tr></thead><tbody>\n");
        for (StatusView.TableRow t : v.tables()) {
            h.append("<tr data-table=\"").append(escape(t.table())).append("\"><td>").append(escape(t.table())).append("</td><td>")
                    .append(escape(t.topic())).append("</td><td class=\"n\">").append(t.captured()).append("</td><td class=\"n\">")
                    .append(t.applied()).append("</td></tr>\n");
        }
        h.append("</tbody></table>\n");
    }

    /** Consumer lag per partition and the WAL the slot retains. */
    private static void lag(StringBuilder h, StatusView v) {
        h.append("<h2>Consumer lag</h2>");
        if (v.lags().isEmpty()) {
            h.append("<p id=\"lag-none\">no partition assigned to this process's sink yet</p>\n");
        } else {
            h.append("<table id=\"lag\"><thead><tr><th>partition</th><th>records</th><th>seconds</th></tr></thead><tbody>\n");
            for (Map.Entry<String, PartitionLag> e : v.lags().entrySet()) {
                h.append("<tr data-partition=\"").append(escape(e.getKey())).append("\"><td>").append(escape(e.getKey()))
                        .append("</td><td class=\"n lag-records\">").append(number(e.getValue().records(), "%.0f"))
                        .append("</td><td class=\"n lag-seconds\">").append(number(e.getValue().seconds(), "%.1f")).append("</td></tr>\n");
            }
            h.append("</tbody></table>\n");
        }
        h.append("<p>WAL retained by slot ").append(escape(v.slot())).append(": <span id=\"wal\">")
                .append(v.walRetained().isPresent() ? bytes(v.walRetained().getAsLong()) : "unknown").append("</span></p>\n");
    }

    private static void watermarkRuns(StringBuilder h, StatusView v) {
        h.append("<h2>Last watermark runs</h2>");
        if (v.watermarkRuns().isEmpty()) {
            h.append("<p id=\"watermark-none\">none recorded in the target</p>\n");
            return;
        }
        h.append("<table id=\"watermark\"><thead><tr><th>table</th><th>started</th><th>mode</th><th>status</th><th>rows</th></tr></thead><tbody>\n");
        v.watermarkRuns().stream().limit(WatermarkRuns.SHOWN).forEach(r -> h.append("<tr><td>").append(escape(r.table()))
                .append("</td><td>").append(escape(r.startedAt())).append("</td><td>").append(escape(r.mode())).append("</td><td>")
                .append(escape(r.status())).append("</td><td class=\"n\">").append(r.rows()).append("</td></tr>\n"));
        h.append("</tbody></table>\n");
    }

    private static void reconcile(StringBuilder h, StatusView v) {
        h.append("<h2>Last reconcile</h2>");
        if (v.reconcile().isEmpty()) {
            h.append("<p id=\"reconcile-none\">none yet (tidemark reconcile --config FILE records its result here)</p>\n");
            return;
        }
        LastReconcile.Result r = v.reconcile().get();
        h.append("<p>finished ").append(escape(r.finishedAt())).append("</p><table id=\"reconcile\"><thead><tr><th>table</th>")
                .append("<th>missing</th><th>surplus</th><th>changed</th></tr></thead><tbody>\n");
        for (LastReconcile.Table t : r.tables()) {
            h.append("<tr><td>").append(escape(t.table())).append("</td><td class=\"n\">").append(t.missing())
                    .append("</td><td class=\"n\">").append(t.surplus()).append("</td><td class=\"n\">").append(t.changed()).append("</td></tr>\n");
        }
        h.append("</tbody></table>\n");
    }

    private static String number(double v, String format) {
        return Double.isNaN(v) ? "unknown" : String.format(Locale.ROOT, format, v);
    }

    static String bytes(long b) {
        return b < 1024 ? b + " B" : b < 1 << 20 ? String.format(Locale.ROOT, "%.1f KiB", b / 1024.0)
                : String.format(Locale.ROOT, "%.1f MiB", b / (double) (1 << 20));
    }
}
