package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class PositionMarkerTest {
    @Test
    void aFailureWithoutMessageIsDescribedByItsSqlState() {
        assertThat(PositionMarker.problem(new SQLException(null, "08006"))).isEqualTo("no reason given (SQL state 08006)");
    }

    @Test
    void aStopBeforeTheFirstPositionNamesTheWholeReSnapshotCommandOfTheCommandThatRanCapture() {
        var config = new dev.tidemark.connector.config.PipelineConfig("shop",
                new dev.tidemark.connector.config.SourceConfig("jdbc:postgresql://127.0.0.1:5432/db", "u",
                        dev.tidemark.connector.config.Secret.empty(), "slot_shop", "pub_shop",
                        java.util.List.of(new dev.tidemark.event.TableId("public", "orders")), true, java.time.Duration.ofMillis(10)),
                new dev.tidemark.connector.config.KafkaConfig("127.0.0.1:9092", "shop", 2, (short) 1, java.util.Map.of()),
                new dev.tidemark.connector.config.TargetConfig("jdbc:sqlite:/tmp/t.db", null, dev.tidemark.connector.config.Secret.empty(),
                        500, "__tidemark_position", false), java.nio.file.Path.of("/tmp/state"));
        assertThat(PositionMarker.notStoredLine(config, "/etc/shop.yaml", "capture", java.time.Duration.ofSeconds(30)))
                .contains("capture shop is stopping before it stored a first position in ", "(waited 30 s)", "refuses",
                        "`tidemark capture --config /etc/shop.yaml --resnapshot`", "slot \"slot_shop\"")
                .doesNotContain("\n", "restart it then");
        assertThat(PositionMarker.notStoredLine(config, "p.yaml", "run", java.time.Duration.ofSeconds(30)))
                .contains("`tidemark run --config p.yaml --resnapshot`");
    }

    @Test
    void aFailureWithAMessageIsItsMessage() {
        assertThat(PositionMarker.problem(new SQLException("slot is busy", "55006"))).isEqualTo("slot is busy");
    }
}
