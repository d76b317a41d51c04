package dev.tidemark.devenv;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The {@code server.properties} of a {@link LocalKafka}: a single KRaft node (broker and controller), replication
 * factor 1 everywhere, topic auto-creation on, a small footprint, and one client listener on {@code host:port}:
 * {@code PLAINTEXT}, or {@code SASL_SSL} only with a {@link KafkaSasl}. The controller listener is plaintext on the
 * same loopback host. Pure.
 */
final class BrokerProperties {
    private BrokerProperties() {
    }

    /** The file's text; {@code sasl} null for a plaintext listener. */
    static String text(Path dir, String host, int brokerPort, int controllerPort, KafkaSasl sasl) {
        String client = sasl == null ? "PLAINTEXT" : KafkaSasl.LISTENER;
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("process.roles", "broker,controller");
        settings.put("node.id", "1");
        // Static voters: the storage is formatted without --standalone (the tool rejects it alongside this setting).
        settings.put("controller.quorum.voters", "1@" + host + ":" + controllerPort);
        settings.put("listeners", client + "://" + host + ":" + brokerPort + ",CONTROLLER://" + host + ":" + controllerPort);
        settings.put("advertised.listeners", client + "://" + host + ":" + brokerPort);
        settings.put("controller.listener.names", "CONTROLLER");
        settings.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT," + client + ":" + client);
        if (sasl != null) {
            settings.putAll(sasl.brokerSettings());
        }
        settings.put("log.dirs", dir.resolve("logs").toString());
        settings.put("num.partitions", "1");
        settings.put("offsets.topic.replication.factor", "1");
        settings.put("offsets.topic.num.partitions", "1");
        settings.put("transaction.state.log.replication.factor", "1");
        settings.put("transaction.state.log.min.isr", "1");
        settings.put("transaction.state.log.num.partitions", "1");
        settings.put("share.coordinator.state.topic.replication.factor", "1");
        settings.put("share.coordinator.state.topic.min.isr", "1");
        settings.put("share.coordinator.state.topic.num.partitions", "1");
        settings.put("group.initial.rebalance.delay.ms", "0");
        settings.put("auto.create.topics.enable", "true");
        // A small machine-friendly footprint: fewer threads, a small log-cleaner buffer (default 128 MiB).
        settings.put("num.network.threads", "2");
        settings.put("num.io.threads", "2");
        settings.put("log.cleaner.dedupe.buffer.size", "8388608");
        return settings.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue().replace("\\", "\\\\"))
                .collect(Collectors.joining("\n", "", "\n"));
    }
}
