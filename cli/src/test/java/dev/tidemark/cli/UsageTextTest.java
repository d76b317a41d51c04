package dev.tidemark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Pins every command's {@code --help}: flags, their order, help text and defaults stay as the files under
 * {@code usage/} say, whatever mixins the options are declared in.
 */
class UsageTextTest {

    @ParameterizedTest
    @ValueSource(strings = {"run", "capture", "sink", "demo", "watermark", "reconcile", "compare", "status", "drop", "snapshot",
            "dev-kafka", "help"})
    void theUsageOfEachCommandIsUnchanged(String command) throws IOException {
        CommandLine sub = new CommandLine(new TidemarkCommand()).getSubcommands().get(command);

        assertThat(sub.getUsageMessage(CommandLine.Help.Ansi.OFF)).isEqualTo(expected(command));
    }

    @Test
    void everyCommandIsPinned() {
        assertThat(new CommandLine(new TidemarkCommand()).getSubcommands().keySet()).containsExactly("run", "capture", "sink", "demo",
                "watermark", "reconcile", "compare", "status", "drop", "snapshot", "dev-kafka", "help");
    }

    private static String expected(String command) throws IOException {
        try (InputStream in = UsageTextTest.class.getResourceAsStream("/usage/" + command + ".txt")) {
            assertThat(in).as("usage/%s.txt", command).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
