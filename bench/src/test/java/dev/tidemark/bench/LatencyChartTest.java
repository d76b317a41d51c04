package dev.tidemark.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyChartTest {

    @Test
    void writesOnePanelPerTransactionSizeWithEveryPointDrawn(@TempDir Path dir) throws Exception {
        System.setProperty("java.awt.headless", "true");
        List<LatencyLoad.Result> rs = List.of(
                result(1, 1000, 11_000, 17_000, 21_000, 47_000), result(1, 5000, 14_000, 25_000, 60_000, 140_000),
                result(1, 10_000, 176_000, 962_000, 1_323_000, 1_406_000), result(10, 1000, 14_000, 21_000, 28_000, 33_000),
                result(10, 5000, 15_000, 22_000, 30_000, 40_000), result(10, 10_000, 16_000, 24_000, 35_000, 52_000));
        Path png = dir.resolve("latency.png");
        LatencyChart.write(rs, "test chart", png);
        BufferedImage img = ImageIO.read(png.toFile());
        assertThat(img.getWidth()).isEqualTo(2 * 560);
        assertThat(img.getHeight()).isEqualTo(460);
        long coloured = 0;
        for (int x = 0; x < img.getWidth(); x++) {
            for (int y = 0; y < img.getHeight(); y++) {
                int rgb = img.getRGB(x, y) & 0xffffff;
                if (rgb == 0xe7298a) { // the p99.9 colour: its points and lines are drawn
                    coloured++;
                }
            }
        }
        assertThat(coloured).isGreaterThan(100);
        if (System.getProperty("latency.chart.copy") != null) {
            Files.copy(png, Path.of(System.getProperty("latency.chart.copy")), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static LatencyLoad.Result result(int rows, int rate, long p50, long p90, long p99, long p999) {
        return new LatencyLoad.Result(rows, rate, rate * 0.999, 1000, p50, p90, p99, p999, p999 + 10_000, -0.1, 40, 3);
    }
}
