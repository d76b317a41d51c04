package dev.tidemark.devenv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A broker started with {@link KafkaSasl} serves clients that sign in with SCRAM-SHA-512 over TLS verified against
 * its authority, and refuses the others: a wrong password, another mechanism, a trust store of another authority
 * (the handshake fails), and plaintext (the port speaks TLS only: a plaintext client never gets an answer).
 */
class LocalKafkaSaslTest {
    private static final String PASSWORD = "scram-pw-41c2";
    private static Path base;
    private static KafkaSasl sasl;
    private static KafkaStores otherAuthority;
    private static LocalKafka kafka;

    @BeforeAll
    static void start() throws Exception {
        base = ServerFolders.newTemporary(null, "tidemark-kafka-sasl-test-");
        TlsCertificates certs = TlsCertificates.make(base.resolve("certs"), "127.0.0.1", "tidemark");
        sasl = new KafkaSasl(KafkaStores.make(certs, base.resolve("stores"), "store-pw-77"), "tidemark", PASSWORD);
        TlsCertificates other = TlsCertificates.make(base.resolve("other-ca"), "127.0.0.1", "tidemark");
        otherAuthority = KafkaStores.trustStore(other.caCert(), base.resolve("other-ca/truststore.p12"), "store-pw-77");
        kafka = LocalKafka.start(base.resolve("kafka"), sasl);
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
        dev.tidemark.process.Directories.deleteOrWarn(base, "test folder");
    }

    @Test
    @Timeout(120)
    void aClientSigningInWithScramOverVerifiedTlsCreatesATopicAndProduces() throws Exception {
        assertThat(kafka.clientProperties()).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512");
        try (Admin admin = Admin.create(client(kafka.clientProperties()))) {
            admin.createTopics(List.of(new NewTopic("sasl-test", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains("sasl-test");
        }
        Map<String, Object> producer = client(kafka.clientProperties());
        producer.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> p = new KafkaProducer<>(producer, new StringSerializer(), new StringSerializer())) {
            assertThat(p.send(new ProducerRecord<>("sasl-test", "k", "v")).get(30, TimeUnit.SECONDS).offset()).isZero();
        }
    }

    @Test
    @Timeout(120)
    void theServerPropertiesHaveNoPlaintextClientListener() throws Exception {
        String properties = Files.readString(kafka.baseDir().resolve("server.properties"));
        assertThat(properties.lines().filter(l -> l.startsWith("listeners=")).toList()).singleElement().asString()
                .matches("listeners=SASL_SSL://127\\.0\\.0\\.1:\\d+,CONTROLLER://127\\.0\\.0\\.1:\\d+");
        assertThat(properties).contains("listener.security.protocol.map=CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL\n")
                .contains("sasl.enabled.mechanisms=SCRAM-SHA-512\n");
    }

    @Test
    @Timeout(120)
    void aWrongPasswordIsRefused() {
        Map<String, String> wrong = KafkaSasl.clientProperties(sasl.stores(), "tidemark", "not-the-password");
        assertThat(describeFailure(wrong)).isInstanceOf(SaslAuthenticationException.class)
                .hasMessageContaining("invalid credentials with SASL mechanism SCRAM-SHA-512");
    }

    @Test
    @Timeout(120)
    void anotherMechanismIsRefused() {
        Map<String, String> sha256 = new HashMap<>(kafka.clientProperties());
        sha256.put("sasl.mechanism", "SCRAM-SHA-256");
        assertThat(describeFailure(sha256)).hasMessageContaining("SCRAM-SHA-256");
    }

    @Test
    @Timeout(120)
    void aTrustStoreOfAnotherAuthorityFailsTheHandshake() {
        assertThat(describeFailure(KafkaSasl.clientProperties(otherAuthority, "tidemark", PASSWORD)))
                .isInstanceOf(SslAuthenticationException.class).hasMessageContaining("SSL handshake failed");
    }

    @Test
    @Timeout(120)
    void aPlaintextClientGetsNoAnswer() {
        assertThat(describeFailure(Map.of())).isInstanceOf(TimeoutException.class);
    }

    /** What describing the cluster with {@code properties} fails with, within 8 s. */
    private static Throwable describeFailure(Map<String, String> properties) {
        Map<String, Object> config = client(properties);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 4_000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 8_000);
        try (Admin admin = Admin.create(config)) {
            Throwable thrown = catchThrowable(() ->
                    admin.describeCluster(new DescribeClusterOptions().timeoutMs(8_000)).nodes().get(20, TimeUnit.SECONDS));
            assertThat(thrown).as("describing the cluster with %s", properties.keySet()).isInstanceOf(ExecutionException.class);
            return thrown.getCause();
        }
    }

    private static Map<String, Object> client(Map<String, String> properties) {
        Map<String, Object> config = new HashMap<>(properties);
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return config;
    }
}
