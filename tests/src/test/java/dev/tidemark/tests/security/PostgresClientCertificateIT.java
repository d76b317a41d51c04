package dev.tidemark.tests.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.devenv.PostgresTls;
import dev.tidemark.event.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tidemark run} against a source that accepts TLS with client certificates only ({@code hostssl … cert
 * clientcert=verify-full}, replication included) and a {@code source.url} carrying {@code sslmode=verify-full},
 * {@code sslrootcert}, {@code sslcert}, {@code sslkey} and {@code sslpassword} (the key is encrypted): the snapshot, streamed changes and {@code tidemark reconcile}
 * agree, the replication connection itself is shown to use TLS with the client certificate, and no output shows the
 * key's password. Each way of
 * connecting less securely than the server demands, or than {@code source.url} can promise, is refused with one line
 * saying what is wrong, and no stack trace.
 */
class PostgresClientCertificateIT {
    static TlsSource source;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSource() throws Exception {
        source = TlsSource.start(PostgresTls::clientCertificates);
        source.sql("CREATE TABLE public.parcels (id int PRIMARY KEY, status text)");
    }

    @AfterAll
    static void stopSource() throws Exception {
        if (source != null) {
            source.close();
        }
    }

    @Test
    void runCapturesSnapshotAndChangesOverTlsWithClientCertificates() throws Exception {
        Path target = dir.resolve("tls_cert.db");
        captureAndReconcile("tls_cert", new TableId("public", "orders"), "jdbc:sqlite:" + target,
                () -> DriverManager.getConnection("jdbc:sqlite:" + target));
    }

    /** The same into a PostgreSQL target that takes TLS with client certificates only: the sink and reconcile use it. */
    @Test
    void runWritesAPostgresTargetOverTlsWithClientCertificates() throws Exception {
        try (Connection c = source.connect("postgres"); java.sql.Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE replica");
        }
        captureAndReconcile("tls_pg_target", new TableId("public", "invoices"), source.url("replica"),
                () -> source.connect("replica"));
    }

    /**
     * {@code tidemark run} of {@code table} into {@code targetUrl}: snapshot, then streamed changes, equal in the
     * target; the walsender uses TLS with the client certificate; SIGTERM; {@code reconcile} finds them equal,
     * {@code status} reads everything, {@code drop --yes} removes the slot; no output shows the key password.
     */
    private void captureAndReconcile(String name, TableId table, String targetUrl, TlsSource.TargetConnection target) throws Exception {
        String t = "public." + table.table();
        source.sql("CREATE TABLE " + t + " (id int PRIMARY KEY, status text, total numeric(10,2))",
                "INSERT INTO " + t + " SELECT g, 'new', g * 1.25 FROM generate_series(1, 300) g");
        assertThat(source.value("SELECT ssl::text FROM pg_stat_ssl WHERE pid = pg_backend_pid()")).isEqualTo("true");
        Path yaml = source.pipeline(dir, name, source.url(TlsSource.DATABASE), t, targetUrl);
        Path log = dir.resolve(name + "-run.log");
        Process run = source.spawn(log, "run", "--config", yaml.toString());

        source.awaitEqual(run, log, table, target, "the snapshot");
        String replication = source.value("SELECT s.ssl::text || ' ' || s.client_dn FROM pg_stat_ssl s"
                + " JOIN pg_stat_replication r ON r.pid = s.pid WHERE r.application_name = 'Debezium Streaming'");
        assertThat(replication).as("Debezium's replication connection: TLS and the client certificate").isEqualTo("true /CN=postgres");

        source.sql("INSERT INTO " + t + " SELECT g, 'late', g FROM generate_series(301, 350) g",
                "UPDATE " + t + " SET status = 'paid', total = total + 1 WHERE id % 7 = 0",
                "DELETE FROM " + t + " WHERE id % 11 = 0");
        source.awaitEqual(run, log, table, target, "the streamed changes");

        new ProcessBuilder("kill", "-TERM", Long.toString(run.pid())).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
        assertThat(run.waitFor(60, TimeUnit.SECONDS)).as("run stopped after SIGTERM").isTrue();
        Path reconcileLog = dir.resolve(name + "-reconcile.log");
        int reconcile = source.runToEnd(reconcileLog, "reconcile", "--config", yaml.toString());
        assertThat(reconcile).as("reconcile exit; output:\n" + Files.readString(reconcileLog)).isZero();
        Path statusLog = dir.resolve(name + "-status.log");
        assertThat(source.runToEnd(statusLog, "status", "--config", yaml.toString())).as("status exit (0: everything read);"
                + " output:\n" + Files.readString(statusLog)).isZero();
        Path dropLog = dir.resolve(name + "-drop.log");
        assertThat(source.runToEnd(dropLog, "drop", "--config", yaml.toString(), "--yes")).as("drop exit; output:\n"
                + Files.readString(dropLog)).isZero();
        assertThat(source.value("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'slot_" + name + "'"))
                .as("the slot after drop").isEqualTo("0");
        assertThat(Files.readString(log) + Files.readString(reconcileLog) + Files.readString(statusLog)
                + Files.readString(dropLog)).as("sslpassword in an output").doesNotContain(TlsSource.KEY_PASSWORD);
    }

    @Test
    void aServerCertificateOfAnotherAuthorityIsRefused() throws Exception {
        String url = source.urlWith("127.0.0.1", source.server.tls().orElseThrow().urlParameters()
                .replace(source.certificates.caCert().toString(), source.otherAuthority.caCert().toString()));
        assertThat(refusal("wrong_ca", url)).containsAnyOf("PKIX path", "certification path");
    }

    @Test
    void aHostNameTheServerCertificateDoesNotNameIsRefused() throws Exception {
        String url = source.urlWith("localhost", source.server.tls().orElseThrow().urlParameters());
        assertThat(refusal("wrong_host", url)).contains("localhost").contains("could not be verified");
    }

    @Test
    void aMissingClientCertificateIsRefusedByTheServer() throws Exception {
        String url = source.urlWith("127.0.0.1", "sslmode=verify-full&sslrootcert=" + source.certificates.caCert());
        assertThat(refusal("no_client_cert", url)).contains("connection requires a valid client certificate");
    }

    @Test
    void plaintextIsRefusedByTheServer() throws Exception {
        String url = source.urlWith("127.0.0.1", "sslmode=disable");
        assertThat(refusal("plaintext", url)).contains("no pg_hba.conf entry").contains("no encryption");
    }

    @Test
    void aTlsParameterDebeziumCannotHonourIsRefusedAtStartNamingIt() throws Exception {
        String url = source.url(TlsSource.DATABASE) + "&sslhostnameverifier=org.postgresql.ssl.PGjdbcHostnameVerifier";
        Path log = dir.resolve("unhonoured.log");
        int exit = source.runToEnd(log, "run", "--config", source.pipeline(dir, "unhonoured", url, "public.parcels").toString());
        String out = Files.readString(log);
        assertThat(exit).as("exit; output:\n" + out).isEqualTo(2);
        // a configuration error is its heading line and one line per problem
        assertThat(TlsSource.errorLines(log)).as(out).singleElement().asString().startsWith("tidemark: invalid configuration ");
        assertThat(out.lines().filter(l -> l.startsWith("  Invalid value ")).toList()).as(out).singleElement().asString()
                .contains("for configuration source.url: URL parameter sslhostnameverifier has no Debezium setting")
                .doesNotContain(TlsSource.KEY_PASSWORD);
    }

    /** Runs {@code tidemark run} with {@code url} as its source; returns its one error line ({@link TlsSource#refusal}). */
    private String refusal(String name, String url) throws Exception {
        return source.refusal(dir.resolve(name + ".log"), "run", "--config", source.pipeline(dir, name, url, "public.parcels").toString());
    }
}
