package dev.tidemark.tests.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.devenv.KafkaSasl;
import dev.tidemark.devenv.KafkaStores;
import dev.tidemark.devenv.LocalKafka;
import dev.tidemark.devenv.PostgresTls;
import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tidemark run} over a Kafka that takes SASL_SSL with SCRAM-SHA-512 only ({@link LocalKafka} with
 * {@link KafkaSasl}: no plaintext listener), from a source that takes TLS with SCRAM passwords only, the Kafka
 * password and trust-store password read from the environment through {@code kafka.properties}: the snapshot, streamed
 * changes, changes made while {@code run} was killed by SIGKILL, then {@code reconcile}, {@code status} and
 * {@code drop --topics} all work, and no output shows a password. A wrong password, another mechanism, a trust store of another
 * authority and plaintext to the SASL port are each refused with one line naming the bootstrap servers, the security
 * protocol and the mechanism, without a stack trace or the password.
 */
class KafkaSaslIT {
    static final String KAFKA_PASSWORD = "kafka-pw-5e0b";
    static final String STORE_PASSWORD = "store-pw-a61f";
    static TlsSource source;
    static LocalKafka kafka;
    static KafkaStores otherAuthority;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        source = TlsSource.start(certs -> PostgresTls.scram(certs, "pg-scram-pw-13"));
        KafkaStores stores = KafkaStores.make(source.certificates, source.base.resolve("kafka-stores"), STORE_PASSWORD);
        otherAuthority = KafkaStores.trustStore(source.otherAuthority.caCert(), source.base.resolve("other-truststore.p12"), STORE_PASSWORD);
        kafka = LocalKafka.start(source.base.resolve("kafka"), new KafkaSasl(stores, "tidemark", KAFKA_PASSWORD));
        source.environment.put("IT_KAFKA_PASSWORD", KAFKA_PASSWORD);
        source.environment.put("IT_KAFKA_STORE_PASSWORD", STORE_PASSWORD);
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
        if (source != null) {
            source.close();
        }
    }

    /** The pipeline's {@code kafka.properties}: the broker's client properties, the secrets as environment references. */
    private static Map<String, String> properties() {
        Map<String, String> p = new HashMap<>(kafka.clientProperties());
        p.put("sasl.jaas.config", KafkaSasl.jaas("tidemark", "${IT_KAFKA_PASSWORD}"));
        p.put("ssl.truststore.password", "${IT_KAFKA_STORE_PASSWORD}");
        return p;
    }

    @Test
    void runSnapshotsStreamsSurvivesAKillAndReconcilesOverSaslSsl() throws Exception {
        TableId table = new TableId("public", "orders");
        source.sql("CREATE TABLE public.orders (id int PRIMARY KEY, status text, total numeric(10,2))",
                "INSERT INTO public.orders SELECT g, 'new', g * 1.25 FROM generate_series(1, 300) g");
        Path target = dir.resolve("sasl.db");
        TlsSource.TargetConnection replica = () -> DriverManager.getConnection("jdbc:sqlite:" + target);
        Path yaml = source.pipeline(dir, "sasl", source.url(TlsSource.DATABASE), "public.orders", "jdbc:sqlite:" + target,
                kafka.bootstrapServers(), properties());
        Path firstLog = dir.resolve("run-1.log");
        Process first = source.spawn(firstLog, "run", "--config", yaml.toString());
        source.awaitEqual(first, firstLog, table, replica, "the snapshot");
        source.sql("INSERT INTO public.orders SELECT g, 'late', g FROM generate_series(301, 350) g",
                "UPDATE public.orders SET status = 'paid', total = total + 1 WHERE id % 7 = 0");
        source.awaitEqual(first, firstLog, table, replica, "the streamed changes");

        first.destroyForcibly(); // SIGKILL: nothing drained, nothing committed at exit
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).as("run died of SIGKILL").isTrue();
        source.sql("DELETE FROM public.orders WHERE id % 11 = 0", "UPDATE public.orders SET status = 'shipped' WHERE id % 5 = 0");
        Path secondLog = dir.resolve("run-2.log");
        Process second = source.spawn(secondLog, "run", "--config", yaml.toString());
        source.awaitEqual(second, secondLog, table, replica, "the changes made while run was killed");
        new ProcessBuilder("kill", "-TERM", Long.toString(second.pid())).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
        assertThat(second.waitFor(60, TimeUnit.SECONDS)).as("run stopped after SIGTERM").isTrue();

        Path reconcileLog = dir.resolve("reconcile.log");
        assertThat(source.runToEnd(reconcileLog, "reconcile", "--config", yaml.toString()))
                .as("reconcile exit; output:\n" + Files.readString(reconcileLog)).isZero();
        Path statusLog = dir.resolve("status.log");
        assertThat(source.runToEnd(statusLog, "status", "--config", yaml.toString()))
                .as("status exit (0: everything read); output:\n" + Files.readString(statusLog)).isZero();
        assertThat(topics()).as("topics before drop").contains("sasl.public.orders");
        Path dropLog = dir.resolve("drop.log");
        assertThat(source.runToEnd(dropLog, "drop", "--config", yaml.toString(), "--yes", "--topics"))
                .as("drop exit; output:\n" + Files.readString(dropLog)).isZero();
        await("drop's topic deletion").atMost(Duration.ofSeconds(30)).until(() -> !topics().contains("sasl.public.orders"));
        String all = String.join("\n", Files.readString(firstLog), Files.readString(secondLog), Files.readString(reconcileLog),
                Files.readString(statusLog), Files.readString(dropLog));
        assertThat(all).as("a password in an output").doesNotContain(KAFKA_PASSWORD).doesNotContain(STORE_PASSWORD);
    }

    @Test
    void aWrongPasswordIsOneLineNamingTheListenerAndTheMechanism() throws Exception {
        Map<String, String> p = properties();
        p.put("sasl.jaas.config", KafkaSasl.jaas("tidemark", "wrong-pw-77aa"));
        String line = refusal("wrong_password", p);
        assertThat(line).contains(kafka.bootstrapServers()).contains("SASL_SSL").contains("SCRAM-SHA-512")
                .contains("invalid credentials").doesNotContain("wrong-pw-77aa");
    }

    @Test
    void anotherMechanismIsOneLineNamingIt() throws Exception {
        Map<String, String> p = properties();
        p.put("sasl.mechanism", "SCRAM-SHA-256");
        assertThat(refusal("other_mechanism", p)).contains(kafka.bootstrapServers()).contains("SASL_SSL")
                .contains("SCRAM-SHA-256").doesNotContain(KAFKA_PASSWORD);
    }

    @Test
    void aTrustStoreOfAnotherAuthorityIsOneLineNamingTheListener() throws Exception {
        Map<String, String> p = properties();
        p.put("ssl.truststore.location", otherAuthority.trustStore().toString());
        assertThat(refusal("other_ca", p)).contains(kafka.bootstrapServers()).contains("SASL_SSL").contains("SCRAM-SHA-512")
                .contains("TLS verification failed").contains("does not chain with any of the trust anchors");
    }

    @Test
    void plaintextToTheSaslPortIsOneLineNamingTheProtocol() throws Exception {
        assertThat(refusal("plaintext", Map.of())).contains(kafka.bootstrapServers())
                .contains("a client with security.protocol PLAINTEXT cannot read (a TLS listener answers so)");
    }

    /** {@code tidemark run} of a one-table pipeline over this Kafka with {@code properties}: its one error line. */
    private String refusal(String name, Map<String, String> properties) throws Exception {
        source.sql("CREATE TABLE IF NOT EXISTS public.parcels (id int PRIMARY KEY, status text)");
        Path yaml = source.pipeline(dir, name, source.url(TlsSource.DATABASE), "public.parcels", "jdbc:sqlite:" + dir.resolve(name + ".db"),
                kafka.bootstrapServers(), properties);
        String line = source.refusal(dir.resolve(name + ".log"), "run", "--config", yaml.toString());
        assertThat(Files.readString(dir.resolve(name + ".log"))).doesNotContain(KAFKA_PASSWORD).doesNotContain(STORE_PASSWORD);
        return line;
    }

    private static Set<String> topics() throws Exception {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put("bootstrap.servers", kafka.bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS);
        }
    }
}
