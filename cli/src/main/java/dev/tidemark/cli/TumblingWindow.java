package dev.tidemark.cli;

import dev.tidemark.connector.config.ConfigException;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code watermark}'s tumbling window: one run over {@code [start, end)} that reads and stores no watermark. Both
 * bounds or neither; a window runs once, so it refuses a repeat interval.
 */
final class TumblingWindow {
    @Option(names = "--window-start", paramLabel = "V", description = "tumbling window start (inclusive); no stored state")
    String start;

    @Option(names = "--window-end", paramLabel = "V", description = "tumbling window end (exclusive)")
    String end;

    /** Throws a {@link ConfigException} for a single bound, or for a window with {@code interval} (null: runs once). */
    void check(Duration interval) {
        if ((start == null) != (end == null)) {
            throw new ConfigException("command line", List.of("--window-start and --window-end go together"));
        }
        if (start != null && interval != null) {
            throw new ConfigException("command line", List.of("a tumbling window (--window-start/--window-end) runs once; drop --every"));
        }
    }
}
