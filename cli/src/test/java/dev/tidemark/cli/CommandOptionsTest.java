package dev.tidemark.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.connector.config.ConfigException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The checks the shared option groups make before anything connects: every wrong value or combination gets its line. */
class CommandOptionsTest {

    private static <T> T parsed(T options, String... args) {
        new CommandLine(options).parseArgs(args);
        return options;
    }

    @Test
    void repairOptionsNameEachWrongCombinationAndReturnTheShareAsAFraction() {
        List<String> problems = new ArrayList<>();
        assertThat(parsed(new RepairOptions(), "--force", "--max-delete-share", "25%").check(problems)).isEqualTo(0.25);
        assertThat(problems).containsExactly("--force goes with --repair", "--force goes with --repair --apply");

        List<String> none = new ArrayList<>();
        assertThat(parsed(new RepairOptions(), "--repair", "--apply", "--max-delete-share", "0.5").check(none)).isEqualTo(0.5);
        assertThat(none).isEmpty();
    }

    @Test
    void aShareOutsideZeroToHundredPercentOrNotANumberIsRefused() {
        List<String> problems = new ArrayList<>();
        parsed(new RepairOptions(), "--max-delete-share", "150%").check(problems);
        parsed(new RepairOptions(), "--max-delete-share", "half").check(problems);
        assertThat(problems).containsExactly("Invalid value 150% for --max-delete-share: between 0% and 100%",
                "Invalid value half for --max-delete-share: a percentage (10%) or a fraction (0.1)");
    }

    @Test
    void watermarkTableOptionsNeedACursorAndValidDurationsInTheOptionsOrder() {
        List<String> problems = new ArrayList<>();
        parsed(new WatermarkTableOptions(), "--overlap", "500", "--settle", "soon", "--chunk-size", "0").check(problems, "1x");
        assertThat(problems).hasSize(4);
        assertThat(problems.get(0)).isEqualTo("Missing --cursor C (or --cursor TIMESTAMP,ID)");
        assertThat(problems.get(1)).startsWith("Invalid value soon for --settle: ");
        assertThat(problems.get(2)).startsWith("Invalid value 1x for --every: ");
        assertThat(problems.get(3)).isEqualTo("Invalid value 0 for --chunk-size: must be at least 1");

        WatermarkTableOptions good = parsed(new WatermarkTableOptions(), "--cursor", "ts,id", "--key", "id", "--overlap", "1d");
        List<String> none = new ArrayList<>();
        good.check(none, null);
        assertThat(none).isEmpty();
        assertThat(good.spec("public.items").table()).isEqualTo("public.items");
    }

    @Test
    void aTumblingWindowNeedsBothBoundsAndRunsOnce() {
        assertThatThrownBy(() -> parsed(new TumblingWindow(), "--window-start", "2024-01-01").check(null))
                .isInstanceOf(ConfigException.class).hasMessageContaining("--window-start and --window-end go together");
        assertThatThrownBy(() -> parsed(new TumblingWindow(), "--window-start", "1", "--window-end", "2").check(Duration.ofMinutes(5)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("runs once; drop --every");
        parsed(new TumblingWindow(), "--window-start", "1", "--window-end", "2").check(null);
        parsed(new TumblingWindow()).check(Duration.ofMinutes(5));
    }

    @Test
    void inlineConnectionOptionsGivenWithAConfigFileAreNamedInTheOrderAsked() {
        ConnectionOptions c = parsed(new ConnectionOptions(), "-c", "p.yaml", "--target", "jdbc:sqlite:t.db", "--source-user", "app");
        assertThat(ConnectionOptions.notWithConfig(new Object[] {"--source", c.source}, new Object[] {"--target", c.target},
                new Object[] {"--source-user", c.sourceUser})).containsExactly("--target cannot be combined with --config (the file says it)",
                "--source-user cannot be combined with --config (the file says it)");
        List<String> problems = new ArrayList<>();
        c.requireSource(problems);
        assertThat(problems).containsExactly("Missing --source JDBC_URL (or give --config FILE)");
    }
}
