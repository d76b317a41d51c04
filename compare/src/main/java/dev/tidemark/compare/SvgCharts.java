package dev.tidemark.compare;

import static dev.tidemark.text.Html.escape;

import java.util.List;
import java.util.Map;

/**
 * Bar charts as inline SVG for the compare page: a grouped vertical chart on the {@link ChartScale} and a horizontal
 * one. Every label goes through {@link dev.tidemark.text.Html#escape}; each bar carries its value as text and as a
 * {@code <title>} tooltip.
 */
final class SvgCharts {
    private static final int BAR_W = 26;
    private static final int GAP = 18;
    private static final int PLOT_H = 180;
    private static final int LEFT = 62;
    private static final int TOP = 40;

    private SvgCharts() {
    }

    /**
     * A grouped vertical bar chart: a y axis on the {@link ChartScale} (log-like, ticks 0, 1, 10, 100, …) titled
     * {@code yTitle}, the value on each bar (0 included), group names and {@code xTitle} under the x axis, and a legend.
     * {@code values[g][i]}: group {@code g}, series {@code i}.
     */
    static String barChart(String title, String yTitle, String xTitle, List<String> groups, List<String> series, List<String> colours,
                           long[][] values) {
        int groupW = series.size() * BAR_W + GAP;
        int width = Math.max(LEFT + groups.size() * groupW + 20, 280);
        int height = TOP + PLOT_H + 66 + 18 * series.size();
        long max = 0;
        for (long[] g : values) {
            for (long v : g) {
                max = Math.max(max, v);
            }
        }
        ChartScale scale = new ChartScale(max, PLOT_H);
        StringBuilder s = new StringBuilder();
        open(s, title, width, height, LEFT);
        int baseY = TOP + PLOT_H;
        yAxis(s, scale, baseY, width, yTitle);
        for (int g = 0; g < groups.size(); g++) {
            int gx = LEFT + g * groupW + GAP / 2;
            for (int i = 0; i < series.size(); i++) {
                bar(s, scale, gx + i * BAR_W, baseY, values[g][i], colours.get(i % colours.size()), groups.get(g) + ", " + series.get(i));
            }
            s.append("<text x=\"").append(gx + series.size() * BAR_W / 2).append("\" y=\"").append(baseY + 16)
                    .append("\" text-anchor=\"middle\">").append(escape(groups.get(g))).append("</text>");
        }
        s.append("<text x=\"").append(LEFT + (width - 10 - LEFT) / 2).append("\" y=\"").append(baseY + 34)
                .append("\" text-anchor=\"middle\" fill=\"#555\">").append(escape(xTitle)).append("</text>");
        for (int i = 0; i < series.size(); i++) {
            int y = baseY + 56 + 18 * i;
            s.append("<rect x=\"").append(LEFT).append("\" y=\"").append(y - 10).append("\" width=\"12\" height=\"12\" fill=\"")
                    .append(colours.get(i % colours.size())).append("\"/><text x=\"").append(LEFT + 18).append("\" y=\"").append(y)
                    .append("\">").append(escape(series.get(i))).append("</text>");
        }
        s.append("</svg>\n");
        return s.toString();
    }

    /** One horizontal bar per label, scaled to the largest value. */
    static String horizontalBarChart(String title, Map<String, Long> values, String colour) {
        int labelW = 230;
        int plotW = 220;
        int rowH = 24;
        int top = 34;
        int width = labelW + plotW + 50;
        int height = top + rowH * values.size() + 10;
        long max = Math.max(1, values.values().stream().mapToLong(Long::longValue).max().orElse(1));
        StringBuilder s = new StringBuilder();
        open(s, title, width, height, 0);
        int i = 0;
        for (Map.Entry<String, Long> e : values.entrySet()) {
            int y = top + i++ * rowH;
            int w = (int) Math.max(2, Math.round(plotW * (double) e.getValue() / max));
            s.append("<text x=\"").append(labelW - 6).append("\" y=\"").append(y + 14).append("\" text-anchor=\"end\">")
                    .append(escape(e.getKey())).append("</text><rect x=\"").append(labelW).append("\" y=\"").append(y + 3)
                    .append("\" width=\"").append(w).append("\" height=\"16\" fill=\"").append(colour).append("\"/><text x=\"")
                    .append(labelW + w + 5).append("\" y=\"").append(y + 15).append("\">").append(e.getValue()).append("</text>");
        }
        s.append("</svg>\n");
        return s.toString();
    }

    /** The {@code <svg>} element, its title and the heading drawn at {@code headingX}. */
    private static void open(StringBuilder s, String title, int width, int height, int headingX) {
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height).append("\" font-family=\"sans-serif\" font-size=\"11\">")
                .append("<title>").append(escape(title)).append("</title>")
                .append("<text x=\"").append(headingX).append("\" y=\"18\" font-size=\"14\" font-weight=\"bold\">").append(escape(title))
                .append("</text>");
    }

    /** Grid lines and labels at the scale's ticks, the axis line and its rotated title. */
    private static void yAxis(StringBuilder s, ChartScale scale, int baseY, int width, String yTitle) {
        for (long t : scale.ticks()) {
            int y = baseY - scale.height(t);
            s.append("<line x1=\"").append(LEFT - 4).append("\" y1=\"").append(y).append("\" x2=\"").append(width - 10)
                    .append("\" y2=\"").append(y).append("\" stroke=\"").append(t == 0 ? "#888" : "#e4e4e4").append("\"/>")
                    .append("<text x=\"").append(LEFT - 7).append("\" y=\"").append(y + 4).append("\" text-anchor=\"end\">").append(t)
                    .append("</text>");
        }
        s.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(TOP - 6).append("\" x2=\"").append(LEFT).append("\" y2=\"")
                .append(baseY).append("\" stroke=\"#888\"/>");
        s.append("<text transform=\"translate(14,").append(TOP + PLOT_H / 2).append(") rotate(-90)\" text-anchor=\"middle\">")
                .append(escape(yTitle + " (log scale)")).append("</text>");
    }

    /** One bar at {@code x} standing on {@code baseY}, its tooltip {@code what: v} and its value above it. */
    private static void bar(StringBuilder s, ChartScale scale, int x, int baseY, long v, String colour, String what) {
        int h = scale.height(v);
        s.append("<rect x=\"").append(x).append("\" y=\"").append(baseY - h).append("\" width=\"").append(BAR_W - 4)
                .append("\" height=\"").append(h).append("\" fill=\"").append(colour)
                .append("\"><title>").append(escape(what + ": " + v)).append("</title></rect>");
        s.append("<text x=\"").append(x + (BAR_W - 4) / 2).append("\" y=\"").append(baseY - h - 4)
                .append("\" text-anchor=\"middle\">").append(v).append("</text>");
    }
}
