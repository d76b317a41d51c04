package dev.tidemark.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import javax.imageio.ImageIO;

/**
 * The PNG plot of {@code bench/latency.sh}: commit → visible latency percentiles (p50, p90, p99, p99.9; logarithmic
 * milliseconds axis) against the offered rate, one panel per transaction size, every point labelled with its value so
 * small and large figures both read.
 */
final class LatencyChart {
    private static final int PANEL_W = 560;
    private static final int H = 460;
    private static final int LEFT = 96;
    private static final int TOP = 60;
    private static final int PLOT_H = 320;
    private static final double MIN_MS = 1;
    private static final double MAX_MS = 10_000;
    private static final Color[] COLORS = {new Color(0x1b9e77), new Color(0x7570b3), new Color(0xd95f02), new Color(0xe7298a)};
    private static final String[] NAMES = {"p50", "p90", "p99", "p99.9"};
    private static final List<ToLongFunction<LatencyLoad.Result>> PICKS = List.of(LatencyLoad.Result::p50Micros,
            LatencyLoad.Result::p90Micros, LatencyLoad.Result::p99Micros, LatencyLoad.Result::p999Micros);

    private LatencyChart() {
    }

    /** Writes the chart of {@code results} (grouped by transaction size, each group ordered by rate) to {@code png}. */
    static void write(List<LatencyLoad.Result> results, String title, Path png) throws IOException {
        List<Integer> sizes = results.stream().map(LatencyLoad.Result::txnRows).distinct().sorted().toList();
        BufferedImage img = new BufferedImage(PANEL_W * Math.max(1, sizes.size()), H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, 12, 22);
        for (int p = 0; p < sizes.size(); p++) {
            int size = sizes.get(p);
            panel(g, p * PANEL_W, size == 1 ? "one-row transactions" : size + "-row transactions",
                    results.stream().filter(r -> r.txnRows() == size).sorted((a, b) -> Integer.compare(a.rate(), b.rate())).toList());
        }
        g.dispose();
        ImageIO.write(img, "png", png.toFile());
    }

    private static void panel(Graphics2D g, int x0, String name, List<LatencyLoad.Result> rs) {
        int plotW = PANEL_W - LEFT - 40;
        axes(g, x0, name, plotW);
        int n = rs.size();
        int[] xs = new int[n];
        for (int i = 0; i < n; i++) {
            xs[i] = x0 + LEFT + (int) ((i + 0.5) * plotW / n);
            LatencyLoad.Result r = rs.get(i);
            String rate = String.format(Locale.ROOT, "%,d (%,.0f)", r.rate(), r.achievedRate());
            g.setColor(Color.BLACK);
            g.drawString(rate, xs[i] - g.getFontMetrics().stringWidth(rate) / 2, TOP + PLOT_H + 20);
        }
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        int[][] labelYs = new int[n][PICKS.size()];
        for (int k = 0; k < PICKS.size(); k++) {
            series(g, k, xs, rs, labelYs);
            g.fillRect(x0 + LEFT + 10 + k * 70, TOP + PLOT_H + 56, 12, 12);
            g.setColor(Color.BLACK);
            g.drawString(NAMES[k], x0 + LEFT + 26 + k * 70, TOP + PLOT_H + 66);
        }
    }

    /** The panel's name, the decade grid with its labels, both axes and their titles. */
    private static void axes(Graphics2D g, int x0, String name, int plotW) {
        g.setStroke(new BasicStroke(1f));
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        g.setColor(Color.BLACK);
        g.drawString(name, x0 + LEFT, TOP - 12);
        for (int decade = 0; decade <= 4; decade++) {
            double ms = Math.pow(10, decade);
            int y = y(ms);
            g.setColor(new Color(0xdddddd));
            g.drawLine(x0 + LEFT, y, x0 + LEFT + plotW, y);
            g.setColor(Color.DARK_GRAY);
            String label = ms >= 1000 ? (long) (ms / 1000) + " s" : (long) ms + " ms";
            g.drawString(label, x0 + LEFT - 8 - g.getFontMetrics().stringWidth(label), y + 4);
        }
        g.setColor(Color.BLACK);
        g.drawLine(x0 + LEFT, TOP, x0 + LEFT, TOP + PLOT_H);
        g.drawLine(x0 + LEFT, TOP + PLOT_H, x0 + LEFT + plotW, TOP + PLOT_H);
        g.drawString("offered rate (changes/s); achieved in brackets", x0 + LEFT + 60, TOP + PLOT_H + 44);
        Graphics2D rotated = (Graphics2D) g.create();
        rotated.rotate(-Math.PI / 2);
        rotated.drawString("commit → visible latency (log scale)", -(TOP + PLOT_H - 40), x0 + 20);
        rotated.dispose();
    }

    /**
     * Percentile {@code k}'s line and labelled points at {@code xs}; {@code labelYs} holds the label heights of the lower
     * percentiles drawn so far and receives this one's. Leaves the series' colour set for its legend swatch.
     */
    private static void series(Graphics2D g, int k, int[] xs, List<LatencyLoad.Result> rs, int[][] labelYs) {
        g.setColor(COLORS[k]);
        g.setStroke(new BasicStroke(2f));
        int px = -1;
        int py = -1;
        for (int i = 0; i < xs.length; i++) {
            double ms = PICKS.get(k).applyAsLong(rs.get(i)) / 1000.0;
            int y = y(ms);
            g.fillOval(xs[i] - 4, y - 4, 8, 8);
            if (px >= 0) {
                g.drawLine(px, py, xs[i], y);
            }
            int ly = y + 4;
            for (int j = 0; j < k; j++) {
                if (Math.abs(labelYs[i][j] - ly) < 12) {
                    ly = labelYs[i][j] - 12; // higher percentiles are higher: keep their labels apart, upwards
                }
            }
            labelYs[i][k] = ly;
            g.drawString(LatencyBenchmark.ms(PICKS.get(k).applyAsLong(rs.get(i))), xs[i] + 7, ly);
            px = xs[i];
            py = y;
        }
    }

    /** Vertical position of {@code ms} on the log axis, clamped to the plot. */
    private static int y(double ms) {
        double v = Math.log10(Math.max(MIN_MS, Math.min(MAX_MS, ms)));
        double top = Math.log10(MAX_MS);
        double bottom = Math.log10(MIN_MS);
        return TOP + (int) Math.round((top - v) / (top - bottom) * PLOT_H);
    }
}
