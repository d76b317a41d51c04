package dev.tidemark.devenv;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a {@link LocalPostgres} secures its connections when started with TLS: {@code ssl=on} with the server
 * certificate and authority of {@code certificates}, and a {@code pg_hba.conf} of {@code hostssl} lines only (normal
 * and replication connections alike), so a connection without TLS is refused by the server. Pure: the settings and
 * lines, no I/O.
 *
 * @param certificates the authority, server and client certificates
 * @param clientAuth   what a client must show besides TLS
 */
public record PostgresTls(TlsCertificates certificates, ClientAuth clientAuth) {
    /** The file names the server reads in its data folder, copied there from {@link #certificates()}. */
    static final String SERVER_CERT = "server.crt";
    static final String SERVER_KEY = "server.key";
    static final String CA_CERT = "root.crt";

    /** What a client must show besides TLS. */
    public sealed interface ClientAuth permits ClientCertificate, Scram {
    }

    /** A client certificate signed by the authority, whose common name is the user ({@code cert clientcert=verify-full}). */
    public record ClientCertificate() implements ClientAuth {
    }

    /** The user's password, by SCRAM-SHA-256; the superuser's password is {@code password}. */
    public record Scram(String password) implements ClientAuth {
        public Scram {
            if (password == null || password.isEmpty()) {
                throw new IllegalArgumentException("a SCRAM password must not be empty");
            }
        }
    }

    public PostgresTls {
        Objects.requireNonNull(certificates, "certificates");
        Objects.requireNonNull(clientAuth, "clientAuth");
    }

    /** Client certificates required, on top of TLS. */
    public static PostgresTls clientCertificates(TlsCertificates certificates) {
        return new PostgresTls(certificates, new ClientCertificate());
    }

    /** SCRAM-SHA-256 passwords required, on top of TLS. */
    public static PostgresTls scram(TlsCertificates certificates, String password) {
        return new PostgresTls(certificates, new Scram(password));
    }

    /** Settings appended to {@code postgresql.conf}: TLS on, with the copied certificate, key and authority. */
    List<String> serverSettings() {
        return List.of("ssl = on", "ssl_cert_file = '" + SERVER_CERT + "'", "ssl_key_file = '" + SERVER_KEY + "'",
                "ssl_ca_file = '" + CA_CERT + "'", "password_encryption = 'scram-sha-256'");
    }

    /** The whole {@code pg_hba.conf}: {@code hostssl} lines from {@code host} only, no {@code host} or {@code local} line. */
    List<String> hbaLines(String host) {
        String method = clientAuth instanceof ClientCertificate ? "cert clientcert=verify-full" : "scram-sha-256";
        List<String> lines = new ArrayList<>();
        lines.add("# TYPE  DATABASE     USER  ADDRESS         METHOD (written by LocalPostgres: TLS only)");
        lines.add("hostssl all          all   " + host + "/32    " + method);
        lines.add("hostssl replication  all   " + host + "/32    " + method);
        return lines;
    }

    /**
     * The pgjdbc URL parameters (after {@code ?}) of a client that verifies the server fully and, with client
     * certificates, shows its own: {@code sslmode=verify-full&sslrootcert=…[&sslcert=…&sslkey=…[&sslpassword=…]]}.
     */
    public String urlParameters() {
        String verify = "sslmode=verify-full&sslrootcert=" + certificates.caCert();
        if (!(clientAuth instanceof ClientCertificate)) {
            return verify;
        }
        String client = verify + "&sslcert=" + certificates.clientCert() + "&sslkey=" + certificates.clientKey();
        String password = certificates.clientKeyPassword();
        return password.isEmpty() ? client : client + "&sslpassword=" + URLEncoder.encode(password, StandardCharsets.UTF_8);
    }
}
