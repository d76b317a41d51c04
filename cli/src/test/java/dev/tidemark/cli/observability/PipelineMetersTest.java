package dev.tidemark.cli.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.PipelineConfigParser;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Prometheus names and labels the docs promise, from the hooks alone (no servers). */
class PipelineMetersTest {
    private static final TableId T = new TableId("public", "orders");

    private static PipelineConfig config() {
        return PipelineConfigParser.parse("""
                name: shop
                source: {url: "jdbc:postgresql://db:5432/app", tables: [public.orders]}
                kafka: {bootstrapServers: "k1:9092"}
                target: {url: "jdbc:sqlite:/tmp/r.db"}
                observability: {port: 9464}
                """, "t.yaml", Path.of("/tmp"), Map.<String, String>of()::get);
    }

    @Test
    void hooksBecomePrometheusCountersTimerBucketsAndLagGauges() {
        PipelineConfig cfg = config();
        long[] now = {10_000};
        try (PipelineMeters m = new PipelineMeters(cfg, () -> now[0])) {
            m.captured(T, 3);
            m.captured(T, 2);
            m.applied(T, 4);
            m.batchApplied(Duration.ofMillis(12));
            m.partitionFetched("shop.public.orders", 0, 9, 10);
            m.partitionApplied("shop.public.orders", 0, 8, 7_000);

            String text = m.scrape();
            assertThat(text).contains("tidemark_events_captured_total{pipeline=\"shop\",table=\"public.orders\"} 5.0")
                    .contains("tidemark_events_applied_total{pipeline=\"shop\",table=\"public.orders\"} 4.0")
                    .contains("tidemark_batch_apply_seconds_bucket{pipeline=\"shop\",le=\"0.01\"} 0")
                    .contains("tidemark_batch_apply_seconds_bucket{pipeline=\"shop\",le=\"0.025\"} 1")
                    .contains("tidemark_batch_apply_seconds_bucket{pipeline=\"shop\",le=\"+Inf\"} 1")
                    .contains("tidemark_batch_apply_seconds_count{pipeline=\"shop\"} 1")
                    .contains("tidemark_consumer_lag_records{partition=\"0\",pipeline=\"shop\",topic=\"shop.public.orders\"} 2.0")
                    .contains("tidemark_consumer_lag_seconds{partition=\"0\",pipeline=\"shop\",topic=\"shop.public.orders\"} 3.0");
            assertThat(m.capturedCount(T)).isEqualTo(5);
            assertThat(m.lags()).containsEntry("shop.public.orders-0", new PartitionLag(2, 3.0));
        }
    }

    @Test
    void jvmAndProcessMetersOfMicrometersBindersAndTheBuildInfo() {
        try (PipelineMeters m = new PipelineMeters(config())) {
            String text = m.scrape();
            for (String name : java.util.List.of("jvm_memory_used_bytes{area=\"heap\"", "jvm_memory_max_bytes{area=\"heap\"",
                    "jvm_gc_memory_allocated_bytes_total{", "jvm_gc_live_data_size_bytes{", "jvm_threads_live_threads{",
                    "jvm_threads_states_threads{", "jvm_classes_loaded_classes{", "process_cpu_usage{", "system_cpu_count{",
                    "process_uptime_seconds{", "process_start_time_seconds{", "process_files_open_files{", "process_files_max_files{")) {
                assertThat(text.lines().filter(l -> l.startsWith(name)).toList()).as(name).isNotEmpty()
                        .allMatch(l -> l.contains("pipeline=\"shop\""));
            }
            assertThat(BuildInfo.version()).as("Maven filtered build.properties with the project's version").matches("\\d+\\.\\d+\\.\\d+.*");
            assertThat(text.lines()).contains("# TYPE tidemark_build_info gauge",
                    "tidemark_build_info{pipeline=\"shop\",version=\"" + BuildInfo.version() + "\"} 1");
        }
    }

    @Test
    void deadLettersAreACounterReadAtEachScrape() {
        try (PipelineMeters m = new PipelineMeters(config())) {
            long[] count = {0};
            m.deadLetters(() -> count[0]);
            assertThat(m.scrape()).contains("tidemark_dead_letters_total{pipeline=\"shop\"} 0.0");
            count[0] = 3;
            assertThat(m.scrape()).contains("# TYPE tidemark_dead_letters_total counter", "tidemark_dead_letters_total{pipeline=\"shop\"} 3.0");
        }
    }

    @Test
    void anUnfilteredOrMissingVersionIsUnknown() {
        assertThat(BuildInfo.parse("${project.version}")).isEqualTo("unknown");
        assertThat(BuildInfo.parse(null)).isEqualTo("unknown");
        assertThat(BuildInfo.parse(" 0.1.0-SNAPSHOT ")).isEqualTo("0.1.0-SNAPSHOT");
    }
}
