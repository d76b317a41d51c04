package dev.tidemark.devenv;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/**
 * The PKCS12 key store and trust store a Kafka listener and its clients read, made with the JDK's own
 * {@link KeyStore} API from {@link TlsCertificates} (no password on any command line): the key store holds the
 * server's key under {@link #KEY_ALIAS} with the chain server certificate, authority; the trust store holds the
 * authority's certificate only. Both files are protected by the same password.
 *
 * @param keyStore   the server's key store (PKCS12), or null for a trust store made alone
 * @param trustStore the trust store (PKCS12) holding the authority's certificate
 * @param password   the password of both stores (and of the key in the key store)
 */
public record KafkaStores(Path keyStore, Path trustStore, String password) {
    static final String KEY_ALIAS = "server";

    public KafkaStores {
        if (password == null || password.length() < 6) {
            throw new IllegalArgumentException("a key store password must have 6 characters at least");
        }
    }

    /** Writes {@code dir/server.keystore.p12} and {@code dir/truststore.p12} (dir created if absent). */
    public static KafkaStores make(TlsCertificates certificates, Path dir, String password) {
        Path keyStore = dir.resolve("server.keystore.p12");
        Path trust = trustStore(certificates.caCert(), dir.resolve("truststore.p12"), password).trustStore();
        try {
            CertificateFactory x509 = CertificateFactory.getInstance("X.509");
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            Certificate[] chain = {certificate(x509, certificates.serverCert()), certificate(x509, certificates.caCert())};
            store.setKeyEntry(KEY_ALIAS, privateKey(certificates.serverKey()), password.toCharArray(), chain);
            write(store, keyStore, password);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("make the Kafka key store " + keyStore + " failed: " + e, e);
        }
        return new KafkaStores(keyStore, trust, password);
    }

    /** Writes a trust store holding {@code caCert} only, as a client of a listener signed by that authority uses. */
    public static KafkaStores trustStore(Path caCert, Path file, String password) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setCertificateEntry("ca", certificate(CertificateFactory.getInstance("X.509"), caCert));
            write(store, file, password);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("make the Kafka trust store " + file + " failed: " + e, e);
        }
        return new KafkaStores(null, file, password);
    }

    private static Certificate certificate(CertificateFactory x509, Path pem) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(pem)) {
            return x509.generateCertificate(in);
        }
    }

    /** An unencrypted PKCS-8 RSA key in PEM ({@code BEGIN PRIVATE KEY}, what {@code openssl req -nodes} writes). */
    private static PrivateKey privateKey(Path pem) throws IOException, GeneralSecurityException {
        String text = Files.readString(pem, StandardCharsets.US_ASCII);
        int begin = text.indexOf("-----BEGIN PRIVATE KEY-----");
        int end = text.indexOf("-----END PRIVATE KEY-----");
        if (begin < 0 || end < begin) {
            throw new GeneralSecurityException(pem + " holds no unencrypted PKCS-8 key (BEGIN PRIVATE KEY)");
        }
        String body = text.substring(begin + "-----BEGIN PRIVATE KEY-----".length(), end).replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
    }

    private static void write(KeyStore store, Path file, String password) throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password.toCharArray());
        }
    }
}
