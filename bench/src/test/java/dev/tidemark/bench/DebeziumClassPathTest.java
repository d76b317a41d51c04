package dev.tidemark.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DebeziumClassPathTest {
    @Test
    void mixedVersionsAreRefused() {
        assertThatThrownBy(() -> DebeziumClassPath.oneVersion(List.of("/l/debezium-connector-jdbc-3.5.0.Final.jar",
                "/l/debezium-api-3.6.1.Final.jar", "/l/kafka-clients-4.3.0.jar")))
                .hasMessageContaining("debezium-api=3.6.1.Final").hasMessageContaining("debezium-connector-jdbc=3.5.0.Final");
    }

    @Test
    void oneVersionIsNamed() {
        assertThat(DebeziumClassPath.oneVersion(List.of("/l/debezium-connector-jdbc-3.5.0.Final.jar", "/l/debezium-sink-3.5.0.Final.jar")))
                .isEqualTo("3.5.0.Final");
    }

    @Test
    void theChildRunsOnBenchsCodeAndTheLibBesideIt() {
        assertThat(DebeziumClassPath.forChild(Path.of("/w/bench/target/tidemark-bench.jar")))
                .isEqualTo("/w/bench/target/tidemark-bench.jar:/w/bench/target/debezium-jdbc-lib/*");
    }
}
