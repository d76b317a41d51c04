package dev.tidemark.connect;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.sink.SinkTaskContext;

/** A task context that records what the task asks of the worker: seeks and backoffs. */
final class FakeTaskContext implements SinkTaskContext {
    final Map<TopicPartition, Long> seeks = new LinkedHashMap<>();
    final List<Long> timeouts = new ArrayList<>();
    final Set<TopicPartition> assigned = new LinkedHashSet<>();

    @Override
    public Map<String, String> configs() {
        return Map.of();
    }

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {
        seeks.putAll(offsets);
    }

    @Override
    public void offset(TopicPartition tp, long offset) {
        seeks.put(tp, offset);
    }

    @Override
    public void timeout(long timeoutMs) {
        timeouts.add(timeoutMs);
    }

    @Override
    public Set<TopicPartition> assignment() {
        return assigned;
    }

    @Override
    public void pause(TopicPartition... partitions) {
    }

    @Override
    public void resume(TopicPartition... partitions) {
    }

    @Override
    public void requestCommit() {
    }

    @Override
    public PluginMetrics pluginMetrics() {
        return null;
    }
}
