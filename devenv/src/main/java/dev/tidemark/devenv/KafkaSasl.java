package dev.tidemark.devenv;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a {@link LocalKafka} secures its client listener when started with SASL: a single {@code SASL_SSL} listener
 * taking {@value #MECHANISM} only, with the server key store of {@link #stores()}, and no plaintext listener for
 * clients (the KRaft controller listener stays plaintext on loopback, for the broker itself). The one SCRAM user is
 * created when the storage is formatted; the broker signs in as that user too. Pure: settings and properties, no I/O.
 *
 * @param stores   the server's key store and the trust store of its authority
 * @param user     the SCRAM user name
 * @param password the SCRAM user's password
 */
public record KafkaSasl(KafkaStores stores, String user, String password) {
    /** The one SASL mechanism the listener takes. */
    public static final String MECHANISM = "SCRAM-SHA-512";
    static final String LISTENER = "SASL_SSL";
    /** Characters that would break the SCRAM argument of the storage tool or the JAAS line. */
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_.@:+-]+");

    public KafkaSasl {
        Objects.requireNonNull(stores, "stores");
        if (stores.keyStore() == null) {
            throw new IllegalArgumentException("a SASL_SSL listener needs a server key store, not a trust store alone");
        }
        for (String value : new String[] {user, password}) {
            if (value == null || !SAFE.matcher(value).matches()) {
                throw new IllegalArgumentException("SCRAM user and password must match " + SAFE.pattern());
            }
        }
    }

    /** {@code org.apache.kafka.common.security.scram.ScramLoginModule required username="…" password="…";}. */
    public static String jaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                + "\" password=\"" + password + "\";";
    }

    /**
     * The properties of a client that signs in as this user and verifies the broker's certificate against
     * {@link #stores()}' trust store (host name checked: Kafka's default {@code https} identification).
     */
    public Map<String, String> clientProperties() {
        return clientProperties(stores, user, password);
    }

    /** The same, with another trust store or other credentials (for the refusal cases of tests). */
    public static Map<String, String> clientProperties(KafkaStores trust, String user, String password) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("security.protocol", LISTENER);
        p.put("sasl.mechanism", MECHANISM);
        p.put("sasl.jaas.config", jaas(user, password));
        p.put("ssl.truststore.type", "PKCS12");
        p.put("ssl.truststore.location", trust.trustStore().toString());
        p.put("ssl.truststore.password", trust.password());
        return p;
    }

    /** The storage tool's {@code --add-scram} argument creating the user. */
    String scramArgument() {
        return MECHANISM + "=[name=" + user + ",password=" + password + "]";
    }

    /** The broker settings of the listener: TLS with the key store, SCRAM only, the broker signing in as the user. */
    Map<String, String> brokerSettings() {
        String prefix = "listener.name." + LISTENER.toLowerCase(java.util.Locale.ROOT) + ".";
        Map<String, String> s = new LinkedHashMap<>();
        s.put("inter.broker.listener.name", LISTENER);
        s.put("sasl.enabled.mechanisms", MECHANISM);
        s.put("sasl.mechanism.inter.broker.protocol", MECHANISM);
        s.put(prefix + MECHANISM.toLowerCase(java.util.Locale.ROOT) + ".sasl.jaas.config", jaas(user, password));
        s.put("ssl.keystore.type", "PKCS12");
        s.put("ssl.keystore.location", stores.keyStore().toString());
        s.put("ssl.keystore.password", stores.password());
        s.put("ssl.key.password", stores.password());
        s.put("ssl.truststore.type", "PKCS12");
        s.put("ssl.truststore.location", stores.trustStore().toString());
        s.put("ssl.truststore.password", stores.password());
        return s;
    }
}
