package dev.tidemark.text;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar for long loads, redrawn in place on a terminal:
 * {@code [#####     ] 51% 510,000/1,000,000 rows 84,000 rows/s}. Redraws at most four times a second; {@link #finish}
 * draws the last state and ends the line. One thread updates a bar at a time (it is not synchronised).
 */
public final class ProgressBar {
    private static final int WIDTH = 30;
    private final PrintStream out;
    private final String label;
    private final long total;
    private final long start = System.nanoTime();
    private long lastDraw;

    public ProgressBar(PrintStream out, String label, long total) {
        this.out = out;
        this.label = label;
        this.total = total;
    }

    public void update(long done) {
        long now = System.nanoTime();
        if (now - lastDraw >= 250_000_000L) {
            lastDraw = now;
            out.print("\r" + line(done, now));
            out.flush();
        }
    }

    public void finish(long done) {
        out.println("\r" + line(done, System.nanoTime()));
        out.flush();
    }

    String line(long done, long now) {
        double fraction = total <= 0 ? 1 : Math.min(1.0, done / (double) total);
        int filled = (int) Math.round(fraction * WIDTH);
        double seconds = Math.max((now - start) / 1e9, 1e-3);
        return String.format(Locale.ROOT, "%s [%s%s] %3d%% %,d/%,d rows %,d rows/s", label, "#".repeat(filled),
                " ".repeat(WIDTH - filled), Math.round(fraction * 100), done, total, Math.round(done / seconds));
    }
}
