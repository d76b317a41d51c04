package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The module graph of docs/architecture.md, checked against the POM files: dependencies between shipped modules point
 * one way only (event → jdbc → sink-writer → connector → reconcile → cli), the Kafka broker is a dependency of
 * {@code devenv} alone, and test helpers ({@code testkit}) are never a compile dependency of a shipped module.
 */
class ModuleGraphTest {
    /** Shipped modules, lowest first: a module may depend only on modules to its left (and on devenv for cli). */
    private static final List<String> LAYERS = List.of("event", "jdbc", "sink-writer", "connector", "reconcile", "cli");
    private static final Set<String> BROKER = Set.of("kafka_2.13", "kafka-server", "kafka-storage", "kafka-raft");
    private static final Pattern DEPENDENCY = Pattern.compile(
            "<dependency>\\s*<groupId>([^<]+)</groupId>\\s*<artifactId>([^<]+)</artifactId>(?:\\s*<version>[^<]*</version>)?(?:\\s*<scope>([^<]+)</scope>)?");

    private record Dependency(String group, String artifact, String scope) {
        String module() {
            return group.equals("dev.tidemark") ? artifact.replaceFirst("^tidemark-", "") : null;
        }
    }

    @Test
    void shippedModulesDependOnlyOnModulesBelowThem() throws IOException {
        Map<String, List<Dependency>> graph = graph();
        List<String> wrong = new ArrayList<>();
        for (String module : LAYERS) {
            int level = LAYERS.indexOf(module);
            for (Dependency d : graph.get(module)) {
                String target = d.module();
                if (target == null || "test".equals(d.scope())) {
                    continue;
                }
                boolean below = LAYERS.contains(target) && LAYERS.indexOf(target) < level;
                boolean devenvForCli = module.equals("cli") && target.equals("devenv");
                if (!below && !devenvForCli) {
                    wrong.add(module + " → " + target);
                }
            }
        }
        assertThat(wrong).as("dependencies that point up or sideways").isEmpty();
    }

    /** The Connect plugin sits beside connector, on sink-writer; Connect's own API and the Kafka client are provided. */
    @Test
    void theConnectPluginDependsOnlyOnTheSinkWriterBelowItAndOnConnectAsProvided() throws IOException {
        List<Dependency> deps = graph().get("connect-sink");
        assertThat(deps).filteredOn(d -> d.module() != null && !"test".equals(d.scope()))
                .extracting(Dependency::module).containsExactly("sink-writer");
        assertThat(deps).filteredOn(d -> d.group().equals("org.apache.kafka"))
                .allSatisfy(d -> assertThat(d.scope()).as(d.artifact()).isEqualTo("provided"));
        assertThat(graph().values()).flatExtracting(l -> l).filteredOn(d -> "connect-sink".equals(d.module()))
                .allSatisfy(d -> assertThat(d.scope()).as("only tests use the plugin").isEqualTo("test"));
    }

    @Test
    void onlyDevenvDeclaresTheKafkaBroker() throws IOException {
        List<String> declaring = new ArrayList<>();
        graph().forEach((module, deps) -> deps.stream().filter(d -> BROKER.contains(d.artifact()))
                .forEach(d -> declaring.add(module + ": " + d.artifact())));
        assertThat(declaring).containsExactly("devenv: kafka_2.13");
    }

    @Test
    void testkitIsNeverACompileDependencyOfAShippedModule() throws IOException {
        Map<String, List<Dependency>> graph = graph();
        for (String module : LAYERS) {
            assertThat(graph.get(module)).as(module)
                    .noneMatch(d -> "testkit".equals(d.module()) && !"test".equals(d.scope()));
        }
        assertThat(graph.get("devenv")).noneMatch(d -> d.module() != null);
    }

    private static Map<String, List<Dependency>> graph() throws IOException {
        Path root = root();
        Map<String, List<Dependency>> graph = new LinkedHashMap<>();
        for (String module : List.of("event", "jdbc", "sink-writer", "connect-sink", "devenv", "connector", "reconcile", "cli", "testkit", "bench", "tests")) {
            String pom = Files.readString(root.resolve(module).resolve("pom.xml"));
            int from = pom.indexOf("<dependencies>");
            String deps = from < 0 ? "" : pom.substring(from, pom.indexOf("</dependencies>", from));
            List<Dependency> list = new ArrayList<>();
            Matcher m = DEPENDENCY.matcher(deps);
            while (m.find()) {
                list.add(new Dependency(m.group(1), m.group(2), m.group(3)));
            }
            graph.put(module, list);
        }
        return graph;
    }

    private static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("event").resolve("pom.xml"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the project root (a folder holding event/pom.xml) above " + Path.of("").toAbsolutePath()).isNotNull();
        return dir;
    }
}
