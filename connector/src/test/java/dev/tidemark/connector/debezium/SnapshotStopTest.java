package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.TargetConfig;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The line said at a stop during the initial snapshot names what it means and the commands that continue. */
class SnapshotStopTest {
    @Test
    void theLineNamesTheResnapshotAloneWithTheCommandUsedAndTheFile() {
        SourceConfig source = new SourceConfig("jdbc:postgresql://127.0.0.1:5432/db", "u", Secret.empty(), "slot_p", "pub",
                List.of(new TableId("public", "t")), true, Duration.ofMillis(10));
        PipelineConfig config = new PipelineConfig("p", source, new KafkaConfig("127.0.0.1:9092", "p", 3, (short) 1, Map.of()),
                new TargetConfig("jdbc:sqlite:/tmp/x.db", null, Secret.empty(), 500, "__tidemark_position", false), Path.of("/tmp/state"));
        assertThat(SnapshotStop.line(config, "p.yaml", "capture")).contains("stopped during its initial snapshot, which does not resume")
                .contains("`tidemark capture --config p.yaml --resnapshot`").contains("slot \"slot_p\"")
                .contains("target rows the new snapshot no longer holds are removed when it ends")
                .doesNotContain("reconcile").doesNotContain("\n");
    }
}
