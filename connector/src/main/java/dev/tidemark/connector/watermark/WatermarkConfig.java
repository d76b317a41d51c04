package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.Durations;

import dev.tidemark.connector.config.KafkaConfig;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.jdbc.UrlMask;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * A watermark pipeline: one JDBC source, the tables to poll (like a ForEach over the control table), and where the
 * events go — straight into a JDBC target (direct mode, the control table in that target, committed with each
 * chunk), or into Kafka (the control table in {@code control}, or in {@code target} when only that is given).
 *
 * @param every run again at this interval until stopped; null = one run
 */
public record WatermarkConfig(String name, Endpoint source, Endpoint target, Endpoint control, KafkaConfig kafka,
                              List<WatermarkTable> tables, Duration every) {
    public WatermarkConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(source, "source");
        tables = List.copyOf(tables);
    }

    /** A database to connect to. */
    public record Endpoint(String url, String user, Secret password) {
        public Endpoint {
            Objects.requireNonNull(url, "url");
            password = password == null ? Secret.empty() : password;
        }

        public Properties properties() {
            Properties p = new Properties();
            if (user != null && !user.isEmpty()) {
                p.setProperty("user", user);
            }
            if (!password.isEmpty()) {
                p.setProperty("password", password.reveal());
            }
            return p;
        }

        @Override
        public String toString() {
            return UrlMask.mask(url) + (user == null ? "" : " user " + user);
        }
    }

    public boolean direct() {
        return kafka == null;
    }

    /** Where the control and run-history tables live. */
    public Endpoint controlStore() {
        return control != null ? control : target;
    }

    public String describe() {
        return "watermark pipeline " + name + ": source " + source + " tables "
                + tables.stream().map(WatermarkTable::name).toList() + " → "
                + (direct() ? "target " + target : "kafka " + kafka.bootstrapServers() + " prefix " + kafka.topicPrefix()
                + ", control table in " + controlStore())
                + (every == null ? "" : ", every " + Durations.format(every));
    }
}
