package dev.tidemark.tests.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.connect.ConnectSinkConfig;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.TableId;
import dev.tidemark.testkit.SyntheticChangeStream;
import dev.tidemark.tests.TestInfrastructure;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin's configuration through Connect's REST API, on a worker with Connect's {@code FileConfigProvider}:
 * <ul>
 *   <li>a converter the task cannot read is refused by {@code POST /connectors} with HTTP 400 naming the key (the
 *       connector's {@code validate}), and no connector is created;</li>
 *   <li>a {@code target.password} given as {@code ${file:…}} is stored and shown by {@code GET /connectors/x/config} as
 *       the reference, never the secret, while the task gets the file's values (its {@code pipeline}, from the same
 *       file, is the name the target's offsets are stored under); a password given literally is shown in plain
 *       text (Connect does not hide it).</li>
 * </ul>
 */
class ConnectConfigIT {
    private static final String BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter";
    private static final String JSON = "org.apache.kafka.connect.json.JsonConverter";
    private static final int RECORDS = 30;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static ConnectWorld world;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        world = new ConnectWorld("tidemark-config", 1, Map.of("config.providers", "file",
                "config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider"));
    }

    @AfterAll
    static void stop() {
        world.close();
    }

    @Test
    void aConverterTheTaskCannotReadIsRefusedByThePostWith400NamingTheKey() throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        Map<String, String> config = ConnectWorld.sinkConfig("refused.public.things", 1, pg, "postgres", JSON);
        config.put("value.converter.replace.null.with.default", "false");
        config.put("value.converter.schemas.enable", "false");
        HttpResponse<String> response = post("converter-refused", config);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.body()).contains("value.converter.schemas.enable").contains("the sink needs the schemas");
        HttpResponse<String> listed = get("connectors");
        assertThat(listed.body()).doesNotContain("converter-refused");
    }

    @Test
    void aPasswordFromAConfigProviderIsStoredAsTheReferenceAndTheTaskGetsTheFilesValues() throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        String targetDb = TestInfrastructure.newDatabase("connect_config_provider");
        String topic = "provided.public.things";
        produce(topic);
        String secret = pg.password().isEmpty() ? "not-checked-by-this-server" : pg.password();
        Path secrets = dir.resolve("secrets.properties");
        Files.writeString(secrets, "target.password=" + secret + "\npipeline=from-the-file\n");
        String reference = "${file:" + secrets + ":target.password}";
        Map<String, String> config = ConnectWorld.sinkConfig(topic, 1, pg, targetDb, BYTES);
        config.put(ConnectSinkConfig.TARGET_PASSWORD, reference);
        config.put(ConnectSinkConfig.PIPELINE, "${file:" + secrets + ":pipeline}");
        assertThat(post("provided", config).statusCode()).isEqualTo(201);

        await("every record of " + topic + " applied under the pipeline name read from the file")
                .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> Long.valueOf(RECORDS).equals(ConnectWorld.storedOffsets(pg, targetDb, "from-the-file")
                        .get(new TopicPartition(topic, 0))));
        String shown = shownConfig("provided");
        assertThat(MAPPER.readTree(shown).get(ConnectSinkConfig.TARGET_PASSWORD).asText()).isEqualTo(reference);
        assertThat(shown).doesNotContain(secret);
        world.connect.deleteConnector("provided");

        Map<String, String> literal = ConnectWorld.sinkConfig(topic, 1, pg, targetDb, BYTES);
        literal.put(ConnectSinkConfig.TARGET_PASSWORD, "literal-" + secret);
        world.connect.configureConnector("literal", literal);
        assertThat(MAPPER.readTree(shownConfig("literal")).get(ConnectSinkConfig.TARGET_PASSWORD).asText())
                .as("a literal password, as Connect shows it").isEqualTo("literal-" + secret);
        world.connect.deleteConnector("literal");
    }

    private static HttpResponse<String> post(String name, Map<String, String> config) throws Exception {
        String body = MAPPER.writeValueAsString(Map.of("name", name, "config", config));
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(world.connect.endpointForResource("connectors")))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The config Connect shows for connector {@code name}, once its herder shows it: a PUT or POST returns when the
     * config is written, and a GET right after it can still answer 404.
     */
    private static String shownConfig(String name) {
        return await("GET connectors/" + name + "/config answers 200").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100)).until(() -> get("connectors/" + name + "/config"), r -> r.statusCode() == 200)
                .body();
    }

    private static HttpResponse<String> get(String resource) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(world.connect.endpointForResource(resource)))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** {@value #RECORDS} change events on partition 0 of a new 1-partition topic. */
    private static void produce(String topic) {
        world.connect.kafka().createTopic(topic, 1);
        SyntheticChangeStream stream = new SyntheticChangeStream(new TableId("public", "things"), 21, 10_000);
        EnvelopeEncoder encoder = new EnvelopeEncoder(topic.substring(0, topic.indexOf('.')), "postgresql", "config");
        for (int i = 0; i < RECORDS; i++) {
            ChangeEvent e = stream.next();
            byte[] value = e instanceof ChangeEvent.Delete d && d.tombstone() ? EnvelopeEncoder.tombstone()
                    : encoder.value(e, SyntheticChangeStream.SCHEMA, 1_700_000_000_000L + i);
            world.connect.kafka().produce(topic, 0, new String(encoder.key(e, SyntheticChangeStream.SCHEMA), StandardCharsets.UTF_8),
                    value == null ? null : new String(value, StandardCharsets.UTF_8));
        }
    }
}
