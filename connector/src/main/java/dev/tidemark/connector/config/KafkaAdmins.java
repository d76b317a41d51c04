package dev.tidemark.connector.config;

import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;

/**
 * Makes the admin clients of Tidemark's commands ({@code run}'s checks and topic creation, {@code status},
 * {@code drop}, the history topic) from {@link KafkaConfig#adminProperties()}: every {@code kafka.properties} entry
 * and the bootstrap servers. A client Kafka cannot make (a trust or key store it cannot read, a JAAS line it rejects)
 * is one {@link IllegalStateException} line naming the bootstrap servers, the protocol and mechanism, and Kafka's
 * innermost reason, instead of Kafka's own {@code Failed to create new KafkaAdminClient}.
 */
public final class KafkaAdmins {
    private KafkaAdmins() {
    }

    /** An admin client of {@code kafka}'s cluster; the caller closes it. */
    public static Admin create(KafkaConfig kafka) {
        return create(kafka.properties(), kafka.adminProperties());
    }

    /** An admin client made from {@code properties}, which hold {@code kafkaProperties} (for the error line). */
    public static Admin create(java.util.Map<String, String> kafkaProperties, Properties properties) {
        try {
            return Admin.create(properties);
        } catch (KafkaException e) {
            throw new IllegalStateException("cannot make a Kafka client for " + properties.get("bootstrap.servers")
                    + " from kafka.properties (" + KafkaFailure.spoken(kafkaProperties) + "): " + KafkaFailure.deepest(e)
                    + " (correct the setting it names in kafka.properties; then run the command again)", e);
        }
    }
}
