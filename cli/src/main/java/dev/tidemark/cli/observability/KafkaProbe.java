package dev.tidemark.cli.observability;

import dev.tidemark.connector.config.PipelineConfig;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/** Asks the pipeline's Kafka cluster to describe itself, within 3 s, on an admin client of its own. */
final class KafkaProbe implements AutoCloseable {
    private final PipelineConfig config;
    private Admin admin;

    KafkaProbe(PipelineConfig config) {
        this.config = config;
    }

    /** Null when Kafka answered; else why not, naming the bootstrap servers. */
    String problem() {
        try {
            if (admin == null) {
                Properties p = new Properties();
                p.putAll(config.kafka().properties());
                p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafka().bootstrapServers());
                p.put(AdminClientConfig.CLIENT_ID_CONFIG, "tidemark-observability-" + config.name());
                p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
                p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
                admin = Admin.create(p);
            }
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(3000)).nodes().get(4, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return "no answer from " + config.kafka().bootstrapServers() + " within 3 s (" + e.getCause().getMessage() + ")";
        } catch (TimeoutException e) {
            return "no answer from " + config.kafka().bootstrapServers() + " within 3 s";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (RuntimeException e) {
            return "cannot ask " + config.kafka().bootstrapServers() + ": " + e.getMessage();
        }
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close(java.time.Duration.ofSeconds(2));
        }
    }
}
