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
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Debezium's connection gets the TLS parameters of source.url, besides its host, port and database. */
class CaptureTlsSettingsTest {

    @Test
    void theUrlsTlsParametersReachDebeziumsConnection() {
        Properties p = engine("jdbc:postgresql://db.example:6432/shop?sslmode=verify-full&sslrootcert=/ca.crt"
                + "&sslcert=/c.crt&sslkey=/c.pk8&sslpassword=pw&sslfactory=org.postgresql.ssl.LibPQFactory");
        assertThat(p).containsEntry("database.hostname", "db.example").containsEntry("database.port", "6432")
                .containsEntry("database.dbname", "shop");
        assertThat(Map.copyOf(p)).containsAllEntriesOf(Map.of("database.sslmode", "verify-full",
                "database.sslrootcert", "/ca.crt", "database.sslcert", "/c.crt", "database.sslkey", "/c.pk8",
                "database.sslpassword", "pw", "database.sslfactory", "org.postgresql.ssl.LibPQFactory"));
    }

    @Test
    void withoutTlsParametersDebeziumKeepsItsOwnDefaults() {
        Properties p = engine("jdbc:postgresql://db.example:6432/shop?ApplicationName=x");
        assertThat(p.stringPropertyNames()).noneMatch(k -> k.startsWith("database.ssl"));
    }

    private static Properties engine(String url) {
        SourceConfig source = new SourceConfig(url, "u", Secret.empty(), "slot", "pub", List.of(new TableId("public", "t")),
                false, Duration.ofMillis(10), List.of(), Duration.ZERO, Map.of());
        PipelineConfig config = new PipelineConfig("p", source, new KafkaConfig("127.0.0.1:9092", "p", 3, (short) 1, Map.of()),
                new TargetConfig("jdbc:sqlite:/tmp/x.db", null, Secret.empty(), 500, "__tidemark_position", false), Path.of("/tmp/state"));
        return CaptureSettings.engine(config, new CaptureStart.Fresh());
    }
}
