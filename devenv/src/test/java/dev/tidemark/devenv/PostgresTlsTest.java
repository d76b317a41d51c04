package dev.tidemark.devenv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The server settings, pg_hba.conf lines and client URL parameters of each TLS choice. */
class PostgresTlsTest {
    private static final TlsCertificates FILES = new TlsCertificates(Path.of("/c/ca.crt"), Path.of("/c/server.crt"),
            Path.of("/c/server.key"), Path.of("/c/client.crt"), Path.of("/c/client.pk8"), "");

    @Test
    void clientCertificatesAreDemandedOnEveryTlsLineAndNoPlaintextLineExists() {
        PostgresTls tls = PostgresTls.clientCertificates(FILES);
        assertThat(tls.hbaLines("127.0.0.1")).filteredOn(l -> !l.startsWith("#")).containsExactly(
                "hostssl all          all   127.0.0.1/32    cert clientcert=verify-full",
                "hostssl replication  all   127.0.0.1/32    cert clientcert=verify-full");
        assertThat(tls.urlParameters()).isEqualTo("sslmode=verify-full&sslrootcert=/c/ca.crt&sslcert=/c/client.crt"
                + "&sslkey=/c/client.pk8");
    }

    @Test
    void anEncryptedClientKeyAddsItsPasswordEncoded() {
        TlsCertificates encrypted = new TlsCertificates(FILES.caCert(), FILES.serverCert(), FILES.serverKey(),
                FILES.clientCert(), FILES.clientKey(), "p&w");
        assertThat(PostgresTls.clientCertificates(encrypted).urlParameters()).endsWith("&sslkey=/c/client.pk8&sslpassword=p%26w");
    }

    @Test
    void scramNeedsTlsAndAPasswordButNoClientCertificate() {
        PostgresTls tls = PostgresTls.scram(FILES, "pw");
        assertThat(tls.hbaLines("127.0.0.1")).filteredOn(l -> !l.startsWith("#"))
                .allSatisfy(l -> assertThat(l).startsWith("hostssl ").endsWith(" scram-sha-256")).hasSize(2);
        assertThat(tls.urlParameters()).isEqualTo("sslmode=verify-full&sslrootcert=/c/ca.crt");
        assertThatThrownBy(() -> PostgresTls.scram(FILES, "")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theServerTurnsTlsOnWithTheCopiedFiles() {
        assertThat(PostgresTls.clientCertificates(FILES).serverSettings()).contains("ssl = on",
                "ssl_cert_file = 'server.crt'", "ssl_key_file = 'server.key'", "ssl_ca_file = 'root.crt'");
    }
}
