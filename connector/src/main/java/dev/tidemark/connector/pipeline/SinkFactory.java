package dev.tidemark.connector.pipeline;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.sink.kafka.SinkSettings;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;

/** Builds the sink writer of a pipeline from its configuration. */
public final class SinkFactory {
    private SinkFactory() {
    }

    public static JdbcChangeSink openTarget(PipelineConfig config) {
        return openTarget(config, false);
    }

    /** With {@code rebuildDroppedTables} (a replay from the earliest offset) a dropped target table is written again. */
    private static JdbcChangeSink openTarget(PipelineConfig config, boolean rebuildDroppedTables) {
        TargetConfig t = config.target();
        Properties p = new Properties();
        if (t.user() != null) {
            p.setProperty("user", t.user());
        }
        if (!t.password().isEmpty()) {
            p.setProperty("password", t.password().reveal());
        }
        try {
            return JdbcChangeSink.open(t.jdbcUrl(), p, new SinkOptions(config.name(), t.positionColumn(), t.applyTruncate(),
                    t.softDeletes() ? SinkOptions.DeleteMode.SOFT : SinkOptions.DeleteMode.HARD, rebuildDroppedTables));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open target " + dev.tidemark.connector.config.UrlRedaction.mask(t.jdbcUrl())
                    + ": " + e.getMessage(), e);
        }
    }

    public static KafkaSinkRunner runner(PipelineConfig config, ReplayFrom replay) {
        SinkSettings settings = new SinkSettings(config.kafka().bootstrapServers(), config.name(), config.topics(),
                config.target().batchSize(), Duration.ofMillis(200), replay, config.kafka().properties(),
                config.target().deadLetterTopic());
        return new KafkaSinkRunner(settings, openTarget(config, replay instanceof ReplayFrom.Earliest));
    }
}
