package dev.tidemark.connector.config;

import java.util.Map;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;

/**
 * The words for a Kafka client's failure, in the messages that already say what was asked of which bootstrap servers
 * (pure). A broker that refused the client's credentials, or whose certificate the client could not verify, is named
 * by the security protocol and SASL mechanism {@code kafka.properties} chose, with what to check; a broker that did
 * not answer gets the protocol the client spoke (a TLS listener never answers a plaintext client). Never a password:
 * only Kafka's own message, which holds none, and the names of settings.
 */
public final class KafkaFailure {
    /**
     * What a pending admin call fails with once the client's thread stopped, as a plaintext client's did on a TLS
     * listener's answer (read as a response of some 350 MB) in a JVM with a small heap; with a large heap the call
     * timed out instead.
     */
    static final String CLIENT_STOPPED = "The AdminClient thread has exited";
    private KafkaFailure() {
    }

    /**
     * Why {@code cause} failed: for an authentication failure (a refused sign-in, a failed TLS handshake),
     * {@code SASL_SSL with SASL mechanism SCRAM-SHA-512 refused: … (check …, then run the command again)}; for anything
     * else, the cause's own message.
     */
    public static String reason(KafkaConfig kafka, Throwable cause) {
        return reason(kafka.properties(), cause);
    }

    /** As {@link #reason(KafkaConfig, Throwable)}, for clients made from {@code properties} ({@code kafka.properties}). */
    public static String reason(Map<String, String> properties, Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SslAuthenticationException) {
                return "TLS verification failed (" + spoken(properties) + "): " + deepest(t)
                        + " (check ssl.truststore.location in kafka.properties: it must hold the authority that signed the"
                        + " broker's certificate, issued for the host in kafka.bootstrapServers; then run the command again)";
            }
            if (t instanceof AuthenticationException) {
                return "the broker refused to authenticate this client (" + spoken(properties) + "): " + t.getMessage()
                        + " (check sasl.mechanism and the user and password of sasl.jaas.config in kafka.properties;"
                        + " then run the command again)";
            }
        }
        if (!protocol(properties).endsWith("SSL") && messages(cause).contains(CLIENT_STOPPED)) {
            return "the Kafka client stopped on the broker's first answer, which a client with security.protocol "
                    + protocol(properties) + " cannot read (a TLS listener answers so): set security.protocol and its TLS"
                    + " settings in kafka.properties to what the listener takes; then run the command again";
        }
        return cause == null ? "no cause given" : String.valueOf(cause.getMessage());
    }

    /** Every message of the chain, one per line. */
    private static String messages(Throwable cause) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }

    /**
     * What to check when the broker did not answer: {@code check kafka.bootstrapServers, that the broker is up and that
     * its listener takes security.protocol PLAINTEXT (a TLS listener never answers a plaintext client)}.
     */
    public static String noAnswerHint(KafkaConfig kafka) {
        return noAnswerHint(kafka.properties());
    }

    /** As {@link #noAnswerHint(KafkaConfig)}, for clients made from {@code properties}. */
    public static String noAnswerHint(Map<String, String> properties) {
        return "check kafka.bootstrapServers, that the broker is up and that its listener takes security.protocol "
                + protocol(properties) + (protocol(properties).equals("PLAINTEXT") ? " (a TLS listener never answers a plaintext client)" : "");
    }

    /** {@code security.protocol SASL_SSL, sasl.mechanism SCRAM-SHA-512}, Kafka's defaults where unset. */
    static String spoken(Map<String, String> properties) {
        String protocol = protocol(properties);
        return "security.protocol " + protocol + (protocol.startsWith("SASL_")
                ? ", sasl.mechanism " + properties.getOrDefault("sasl.mechanism", "GSSAPI") : "");
    }

    private static String protocol(Map<String, String> properties) {
        return properties.getOrDefault("security.protocol", "PLAINTEXT").toUpperCase(java.util.Locale.ROOT);
    }

    /** The innermost message: a handshake's reason ({@code PKIX path building failed: …}) under Kafka's own words. */
    static String deepest(Throwable t) {
        String message = t.getMessage();
        for (Throwable c = t.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c.getMessage() != null) {
                message = c.getMessage();
            }
        }
        return message;
    }
}
