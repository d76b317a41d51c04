package dev.tidemark.devenv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster started with {@link PostgresTls} takes TLS connections with what it demands and refuses plaintext ones
 * (the server says so: no {@code pg_hba.conf} entry without encryption).
 */
class LocalPostgresTlsTest {

    @Test
    @Timeout(180)
    void clientCertificateClusterTakesTlsWithTheCertificateOnly() throws Exception {
        withCluster(PostgresTls::clientCertificates, (pg, certs) -> {
            assertThat(sslAndClientDn(pg.jdbcUrl("postgres"), "")).isEqualTo("true /CN=postgres");
            assertPlaintextRefused(pg);
            String noCertificate = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/postgres?sslmode=verify-full"
                    + "&sslrootcert=" + certs.caCert();
            assertThatThrownBy(() -> sslAndClientDn(noCertificate, "")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("connection requires a valid client certificate");
        });
    }

    @Test
    @Timeout(180)
    void scramClusterTakesTlsWithThePasswordOnly() throws Exception {
        withCluster(certs -> PostgresTls.scram(certs, "s3cret-pw"), (pg, certs) -> {
            assertThat(pg.password()).isEqualTo("s3cret-pw");
            assertThat(sslAndClientDn(pg.jdbcUrl("postgres"), pg.password())).isEqualTo("true ");
            assertThatThrownBy(() -> sslAndClientDn(pg.jdbcUrl("postgres"), "wrong")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("password authentication failed");
            assertPlaintextRefused(pg);
        });
    }

    private interface ClusterCheck {
        void check(LocalPostgres pg, TlsCertificates certs) throws Exception;
    }

    /** Starts a TLS cluster in a new folder under the temporary folder, runs {@code check}, stops it and deletes all. */
    private static void withCluster(Function<TlsCertificates, PostgresTls> tls, ClusterCheck check) throws Exception {
        Path parent = ServerFolders.newTemporary(null, "tidemark-pg-tls-test-");
        try {
            TlsCertificates certs = TlsCertificates.make(parent.resolve("certs"), "127.0.0.1", "postgres");
            try (LocalPostgres pg = LocalPostgres.start(parent.resolve("pg"), tls.apply(certs))) {
                check.check(pg, certs);
            }
        } finally {
            dev.tidemark.process.Directories.deleteOrWarn(parent, "test folder");
        }
    }

    private static void assertPlaintextRefused(LocalPostgres pg) {
        String plain = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/postgres?sslmode=disable";
        assertThatThrownBy(() -> sslAndClientDn(plain, pg.password())).isInstanceOf(SQLException.class)
                .hasMessageContaining("no pg_hba.conf entry").hasMessageContaining("no encryption");
    }

    /** {@code pg_stat_ssl}'s {@code ssl} and {@code client_dn} of the connection {@code url} opens, space-separated. */
    private static String sslAndClientDn(String url, String password) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", password); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT ssl::text || ' ' || coalesce(client_dn, '') FROM pg_stat_ssl"
                     + " WHERE pid = pg_backend_pid()")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
