package dev.tidemark.devenv;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A throwaway certificate authority and the two certificates it signed, made with {@code openssl} for tests: a server
 * certificate for one IP address (its only subject alternative name) and a client certificate whose common name is a
 * database user (what PostgreSQL's {@code cert} authentication matches). Every key is RSA; the client key is also
 * written as PKCS-8 DER, the form pgjdbc reads, encrypted when a key password is given (PBE-SHA1-3DES, which Java
 * decrypts).
 *
 * @param caCert     the authority's certificate (PEM): the {@code sslrootcert} of a client, the server's {@code ssl_ca_file}
 * @param serverCert the server's certificate (PEM)
 * @param serverKey  the server's private key (PEM)
 * @param clientCert the client's certificate (PEM)
 * @param clientKey  the client's private key (PKCS-8 DER)
 * @param clientKeyPassword the password {@link #clientKey()} is encrypted with (pgjdbc's {@code sslpassword}), or ""
 */
public record TlsCertificates(Path caCert, Path serverCert, Path serverKey, Path clientCert, Path clientKey,
                              String clientKeyPassword) {
    public TlsCertificates {
        clientKeyPassword = clientKeyPassword == null ? "" : clientKeyPassword;
    }

    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);

    /** {@link #make(Path, String, String, String)} with an unencrypted client key. */
    public static TlsCertificates make(Path dir, String serverIp, String clientUser) {
        return make(dir, serverIp, clientUser, "");
    }

    /**
     * Makes a new authority and its certificates in {@code dir} (created if absent): the server's for {@code serverIp},
     * the client's for {@code clientUser}, its key encrypted with {@code keyPassword} unless that is empty. Throws
     * {@link IllegalStateException} naming the {@code openssl} step that failed.
     */
    public static TlsCertificates make(Path dir, String serverIp, String clientUser, String keyPassword) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalStateException("create " + dir + " failed: " + e, e);
        }
        TlsCertificates c = new TlsCertificates(dir.resolve("ca.crt"), dir.resolve("server.crt"), dir.resolve("server.key"),
                dir.resolve("client.crt"), dir.resolve("client.pk8"), keyPassword);
        Path caKey = dir.resolve("ca.key");
        openssl(dir, "CA", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=tidemark test CA",
                "-keyout", caKey.toString(), "-out", c.caCert().toString(),
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
        signed(dir, "server", "/CN=" + serverIp, c.serverKey(), c.serverCert(), caKey, c.caCert(),
                "subjectAltName=IP:" + serverIp + "\nextendedKeyUsage=serverAuth\n");
        Path clientPem = dir.resolve("client.key");
        signed(dir, "client", "/CN=" + clientUser, clientPem, c.clientCert(), caKey, c.caCert(), "extendedKeyUsage=clientAuth\n");
        List<String> encryption = keyPassword.isEmpty() ? List.of("-nocrypt")
                : List.of("-v1", "PBE-SHA1-3DES", "-passout", "pass:" + keyPassword);
        List<String> pkcs8 = new ArrayList<>(List.of("pkcs8", "-topk8", "-inform", "PEM", "-outform", "DER",
                "-in", clientPem.toString(), "-out", c.clientKey().toString()));
        pkcs8.addAll(encryption);
        openssl(dir, "client key as PKCS-8", pkcs8.toArray(String[]::new));
        return c;
    }

    /** A key and a certificate for {@code subject}, signed by the authority, with the extensions in {@code extensions}. */
    private static void signed(Path dir, String who, String subject, Path key, Path cert, Path caKey, Path caCert,
                               String extensions) {
        Path request = dir.resolve(who + ".csr");
        Path extFile = dir.resolve(who + ".ext");
        try {
            Files.writeString(extFile, "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n" + extensions);
        } catch (IOException e) {
            throw new IllegalStateException("write " + extFile + " failed: " + e, e);
        }
        openssl(dir, who + " request", "req", "-new", "-newkey", "rsa:2048", "-nodes", "-subj", subject,
                "-keyout", key.toString(), "-out", request.toString());
        openssl(dir, who + " certificate", "x509", "-req", "-in", request.toString(), "-CA", caCert.toString(),
                "-CAkey", caKey.toString(), "-CAcreateserial", "-days", "2", "-extfile", extFile.toString(),
                "-out", cert.toString());
    }

    private static void openssl(Path dir, String step, String... arguments) {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        Processes.run("openssl: " + step, command, dir, STEP_TIMEOUT);
    }
}
