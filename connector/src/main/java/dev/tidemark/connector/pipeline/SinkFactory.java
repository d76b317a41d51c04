package dev.tidemark.connector.pipeline;

import dev.tidemark.jdbc.JdbcEndpoints;
import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.SinkOptions;
import dev.tidemark.sink.kafka.KafkaSinkRunner;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.sink.kafka.SinkSettings;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;

/**
 * Builds the sink writer of a pipeline from its configuration. The sink is a static member of its consumer group
 * ({@code group.instance.id = <pipeline>-<member id>}): the member id is the user's {@code --member-id}, else one
 * claimed from the state directory ({@link MemberSlot}), so a sink restarted after a crash resumes at once. A
 * {@code group.instance.id} in {@code kafka.properties} overrides both.
 */
public final class SinkFactory {
    private SinkFactory() {
    }

    public static JdbcChangeSink openTarget(PipelineConfig config) {
        return openTarget(config, false);
    }

    /** With {@code rebuildDroppedTables} (a replay from the earliest offset) a dropped target table is written again. */
    private static JdbcChangeSink openTarget(PipelineConfig config, boolean rebuildDroppedTables) {
        TargetConfig t = config.target();
        try {
            return JdbcChangeSink.open(t.jdbcUrl(), connectionProperties(t), new SinkOptions(config.name(), t.positionColumn(), t.applyTruncate(),
                    t.softDeletes() ? SinkOptions.DeleteMode.SOFT : SinkOptions.DeleteMode.HARD, rebuildDroppedTables, t.tables()));
        } catch (SQLException e) {
            throw cannotOpen(t, e);
        }
    }

    /**
     * Checks that the target can be reached with its credentials, changing nothing: a database server is connected to
     * and left at once; a SQLite file is not opened (opening creates it), its folder was checked with the URL.
     */
    static void checkTarget(PipelineConfig config) {
        TargetConfig t = config.target();
        if (JdbcEndpoints.sqliteFile(t.jdbcUrl()).isPresent()) {
            return;
        }
        try (Connection c = DriverManager.getConnection(t.jdbcUrl(), connectionProperties(t))) {
            c.isValid(1);
        } catch (SQLException e) {
            throw cannotOpen(t, e);
        }
    }

    private static Properties connectionProperties(TargetConfig t) {
        Properties p = new Properties();
        if (t.user() != null) {
            p.setProperty("user", t.user());
        }
        if (!t.password().isEmpty()) {
            p.setProperty("password", t.password().reveal());
        }
        return p;
    }

    private static IllegalStateException cannotOpen(TargetConfig t, SQLException e) {
        return new IllegalStateException("cannot open the target at " + JdbcEndpoints.host(t.jdbcUrl()) + " ("
                + UrlMask.mask(t.jdbcUrl()) + "): " + UrlMask.mask(e.getMessage(), t.jdbcUrl()), e);
    }

    /** The sink's settings: its consumer and dead-letter producer get every {@code kafka.properties} entry ({@code extra}). */
    static SinkSettings settings(PipelineConfig config, ReplayFrom replay, SinkChoices choices) {
        return new SinkSettings(config.kafka().bootstrapServers(), config.name(), config.topics(),
                config.target().batchSize(), Duration.ofMillis(200), replay, config.kafka().properties(),
                config.target().deadLetterTopic()).withSkipChoices(choices.acceptRetentionGap(), choices.skipUnapplied());
    }

    public static KafkaSinkRunner runner(PipelineConfig config, ReplayFrom replay) {
        return runner(config, replay, SinkChoices.DEFAULT);
    }

    public static KafkaSinkRunner runner(PipelineConfig config, ReplayFrom replay, SinkChoices choices) {
        SinkSettings settings = settings(config, replay, choices);
        MemberSlot slot = null;
        if (choices.memberId() != null) {
            settings = settings.withMemberId(choices.memberId());
        } else if (!config.kafka().properties().containsKey("group.instance.id")) {
            slot = MemberSlot.claim(config.stateDir(), config.name());
            settings = settings.withMemberId(slot.id());
        }
        try {
            KafkaSinkRunner runner = new KafkaSinkRunner(settings, openTarget(config, replay instanceof ReplayFrom.Earliest));
            return slot == null ? runner : runner.alsoClosing(slot);
        } catch (RuntimeException e) {
            if (slot != null) {
                slot.close();
            }
            throw e;
        }
    }
}
