package dev.tidemark.connector.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLHandshakeException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.UnsupportedSaslMechanismException;
import org.junit.jupiter.api.Test;

class KafkaFailureTest {
    private static final String PASSWORD = "jaas-pw-31";
    private static final KafkaConfig SASL = new KafkaConfig("b1:9093", "p", 1, (short) 1, Map.of(
            "security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512",
            "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"" + PASSWORD + "\";",
            "ssl.truststore.password", PASSWORD));
    private static final KafkaConfig PLAIN = new KafkaConfig("b1:9092", "p", 1, (short) 1, Map.of());

    @Test
    void aRefusedSignInNamesProtocolMechanismAndWhatToCheckButNoPassword() {
        String reason = KafkaFailure.reason(SASL, new ExecutionException(new SaslAuthenticationException(
                "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512")));
        assertThat(reason).isEqualTo("the broker refused to authenticate this client (security.protocol SASL_SSL, sasl.mechanism"
                + " SCRAM-SHA-512): Authentication failed during authentication due to invalid credentials with SASL mechanism"
                + " SCRAM-SHA-512 (check sasl.mechanism and the user and password of sasl.jaas.config in kafka.properties;"
                + " then run the command again)").doesNotContain(PASSWORD);
    }

    @Test
    void aMechanismTheBrokerDoesNotTakeIsARefusedSignIn() {
        assertThat(KafkaFailure.reason(SASL, new UnsupportedSaslMechanismException("Client SASL mechanism 'SCRAM-SHA-256' not enabled")))
                .startsWith("the broker refused to authenticate this client (security.protocol SASL_SSL, sasl.mechanism SCRAM-SHA-512):"
                        + " Client SASL mechanism 'SCRAM-SHA-256' not enabled");
    }

    @Test
    void aFailedHandshakeGivesItsInnermostReasonAndTheTrustStoreToCheck() {
        SslAuthenticationException ssl = new SslAuthenticationException("SSL handshake failed");
        ssl.initCause(new SSLHandshakeException("PKIX path building failed: unable to find valid certification path"));
        assertThat(KafkaFailure.reason(SASL, ssl)).startsWith("TLS verification failed (security.protocol SASL_SSL, sasl.mechanism"
                + " SCRAM-SHA-512): PKIX path building failed: unable to find valid certification path (check ssl.truststore.location")
                .doesNotContain(PASSWORD);
    }

    @Test
    void aPlaintextClientWhoseThreadStoppedIsToldTheListenerMayTakeTls() {
        String reason = KafkaFailure.reason(PLAIN, new ExecutionException(
                new org.apache.kafka.common.errors.TimeoutException("The AdminClient thread has exited. Call: listTopics")));
        assertThat(reason).isEqualTo("the Kafka client stopped on the broker's first answer, which a client with security.protocol"
                + " PLAINTEXT cannot read (a TLS listener answers so): set security.protocol and its TLS settings in kafka.properties"
                + " to what the listener takes; then run the command again");
        assertThat(KafkaFailure.reason(SASL, new IllegalStateException("The AdminClient thread has exited. Call: listTopics")))
                .as("a TLS client is not told to use TLS").isEqualTo("The AdminClient thread has exited. Call: listTopics");
    }

    @Test
    void anyOtherFailureIsItsOwnMessage() {
        assertThat(KafkaFailure.reason(PLAIN, new IllegalStateException("topic x is marked for deletion"))).isEqualTo("topic x is marked for deletion");
    }

    @Test
    void noAnswerNamesTheProtocolSpokenAndForPlaintextThatATlsListenerStaysSilent() {
        assertThat(KafkaFailure.noAnswerHint(PLAIN)).isEqualTo("check kafka.bootstrapServers, that the broker is up and that its"
                + " listener takes security.protocol PLAINTEXT (a TLS listener never answers a plaintext client)");
        assertThat(KafkaFailure.noAnswerHint(SASL)).endsWith("listener takes security.protocol SASL_SSL");
        assertThat(KafkaFailure.spoken(Map.of("security.protocol", "sasl_plaintext"))).isEqualTo(
                "security.protocol SASL_PLAINTEXT, sasl.mechanism GSSAPI");
    }
}
