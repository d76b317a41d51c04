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
 * one way only, up the layers {text, process} → event → jdbc → sink-writer → {connector, reconcile} → compare → cli; connector and
 * reconcile sit side by side and neither uses the other, so the reconcile library depends on exactly event, jdbc,
 * sink-writer and text (no Debezium, no Connect); the experiment harness compare is used by cli alone; the Kafka broker
 * is a dependency of {@code devenv} alone, which uses no module but process; test helpers ({@code testkit}) are never a compile dependency of a shipped
 * module; and every module the root POM lists has its place here.
 */
class ModuleGraphTest {
    /** Shipped modules by layer, lowest first: a module may depend only on modules of lower layers (and cli on devenv). */
    private static final List<Set<String>> LAYERS = List.of(Set.of("text", "process"), Set.of("event"), Set.of("jdbc"), Set.of("sink-writer"),
            Set.of("connector", "reconcile"), Set.of("compare"), Set.of("cli"));
    private static final List<String> SHIPPED = LAYERS.stream().flatMap(Set::stream).sorted().toList();
    /** Every module of the root POM: the shipped ones, the Connect plugin, the dev servers, test helpers, tests, benchmarks. */
    private static final List<String> MODULES = List.of("text", "process", "event", "jdbc", "sink-writer", "connect-sink", "devenv", "connector",
            "reconcile", "compare", "cli", "testkit", "tests", "bench");
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
        for (String module : SHIPPED) {
            for (String target : modules(graph.get(module))) {
                boolean below = SHIPPED.contains(target) && layer(target) < layer(module);
                boolean devenvForCli = module.equals("cli") && target.equals("devenv");
                if (!below && !devenvForCli) {
                    wrong.add(module + " → " + target);
                }
            }
        }
        assertThat(wrong).as("dependencies that point up or sideways").isEmpty();
    }

    /** The reconcile library needs the event model, JDBC, the apply side's table writes and a progress bar: nothing of capture. */
    @Test
    void reconcileDependsOnExactlyEventJdbcSinkWriterAndText() throws IOException {
        List<Dependency> deps = graph().get("reconcile");
        assertThat(modules(deps)).containsExactlyInAnyOrder("event", "jdbc", "sink-writer", "text");
        assertThat(deps).filteredOn(d -> !"test".equals(d.scope()))
                .noneMatch(d -> d.group().equals("io.debezium") || d.artifact().startsWith("connect-"));
    }

    /** compare runs CDC (connector) against reconcile; only the command ships it, and tests use it as a test dependency. */
    @Test
    void compareStandsOnConnectorAndReconcileAndOnlyTheCommandUsesIt() throws IOException {
        Map<String, List<Dependency>> graph = graph();
        assertThat(modules(graph.get("compare"))).contains("connector", "reconcile");
        List<String> users = new ArrayList<>();
        graph.forEach((module, deps) -> deps.stream().filter(d -> "compare".equals(d.module()) && !"test".equals(d.scope()))
                .forEach(d -> users.add(module)));
        assertThat(users).containsExactly("cli");
    }

    /** text is the floor every module may stand on: it depends on nothing. */
    @Test
    void textDependsOnNothing() throws IOException {
        assertThat(graph().get("text")).allSatisfy(d -> assertThat(d.scope()).as(d.artifact()).isEqualTo("test"));
    }

    /** process is the other floor, under devenv too: it uses no module and nothing but SLF4J's API. */
    @Test
    void processUsesOnlyTheLoggingApi() throws IOException {
        assertThat(graph().get("process")).filteredOn(d -> !"test".equals(d.scope()))
                .extracting(Dependency::artifact).containsExactly("slf4j-api");
    }

    @Test
    void everyModuleOfTheRootPomHasItsPlaceInTheseRules() throws IOException {
        String pom = Files.readString(root().resolve("pom.xml"));
        List<String> listed = new ArrayList<>();
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
        while (m.find()) {
            listed.add(m.group(1));
        }
        assertThat(listed).containsExactlyInAnyOrderElementsOf(MODULES);
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
        for (String module : SHIPPED) {
            assertThat(graph.get(module)).as(module)
                    .noneMatch(d -> "testkit".equals(d.module()) && !"test".equals(d.scope()));
        }
        assertThat(modules(graph.get("devenv"))).containsExactly("process");
    }

    private static int layer(String module) {
        for (int i = 0; i < LAYERS.size(); i++) {
            if (LAYERS.get(i).contains(module)) {
                return i;
            }
        }
        throw new IllegalArgumentException(module + " is not a shipped module");
    }

    /** The Tidemark modules among {@code deps}, test scope left out. */
    private static List<String> modules(List<Dependency> deps) {
        return deps.stream().filter(d -> d.module() != null && !"test".equals(d.scope())).map(Dependency::module).toList();
    }

    private static Map<String, List<Dependency>> graph() throws IOException {
        Path root = root();
        Map<String, List<Dependency>> graph = new LinkedHashMap<>();
        for (String module : MODULES) {
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
