package dev.tidemark.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
    @Test
    void showsShareRowsAndRate() {
        ProgressBar bar = new ProgressBar(new PrintStream(PrintStream.nullOutputStream()), "public.big", 1_000_000);
        String line = bar.line(510_000, System.nanoTime());
        assertThat(line).startsWith("public.big [###############               ]  51% 510,000/1,000,000 rows ").endsWith(" rows/s");
    }
}
