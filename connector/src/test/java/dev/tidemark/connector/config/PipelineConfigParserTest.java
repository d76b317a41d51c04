package dev.tidemark.connector.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineConfigParserTest {
    private static final String GOOD = """
            name: orders
            source:
              url: jdbc:postgresql://db.example:6543/app
              user: cdc
              password: ${PGPASSWORD}
              tables: [public.orders, "sales.line items"]
            kafka:
              bootstrapServers: k1:9092
              partitions: 3
            target:
              url: jdbc:sqlite:${DATA_DIR:-/var/lib/tidemark}/replica.db
            """;

    @Test
    void parsesWithDefaultsAndEnvironment() {
        PipelineConfig c = PipelineConfigParser.parse(GOOD, "test.yaml", Path.of("/etc/tidemark"), Map.of("PGPASSWORD", "s3cret")::get);
        assertThat(c.source().host()).isEqualTo("db.example");
        assertThat(c.source().port()).isEqualTo(6543);
        assertThat(c.source().database()).isEqualTo("app");
        assertThat(c.source().password().reveal()).isEqualTo("s3cret");
        assertThat(c.source().tables()).containsExactly(new TableId("public", "orders"), new TableId("sales", "line items"));
        assertThat(c.source().slot()).isEqualTo("tidemark_orders");
        assertThat(c.kafka().topicPrefix()).isEqualTo("orders");
        assertThat(c.topics()).as("a table name with a space is escaped (TopicNames)").containsExactly("orders.public.orders", "orders.sales.line-20items");
        assertThat(c.target().jdbcUrl()).isEqualTo("jdbc:sqlite:/var/lib/tidemark/replica.db");
        assertThat(c.target().batchSize()).isEqualTo(2000);
        assertThat(c.stateDir()).isEqualTo(Path.of("/etc/tidemark/tidemark-state"));
    }

    @Test
    void secretsNeverPrint() {
        PipelineConfig c = PipelineConfigParser.parse(GOOD.replace("jdbc:sqlite:", "jdbc:sqlite:file?password=p4ss&x=1#"),
                "test.yaml", Path.of("."), Map.of("PGPASSWORD", "s3cret")::get);
        assertThat(c.describe()).doesNotContain("s3cret").doesNotContain("p4ss").contains("[hidden]");
        assertThat(c.source().password().toString()).isEqualTo("[hidden]");
    }

    @Test
    void everyProblemIsReportedAtOnceNamingItsKey() {
        String bad = """
                name: "bad name!"
                source:
                  url: jdbc:mysql://x/y
                  tables: [orders]
                  pollIntervalMs: soon
                  colour: blue
                kafka:
                  partitions: 0
                target:
                  url: replica.db
                """;
        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> PipelineConfigParser.parse(bad, "bad.yaml", Path.of("."), Map.<String, String>of()::get));
        assertThat(e.problems()).containsExactlyInAnyOrder(
                "Invalid value bad name! for configuration name: use letters, digits, '_', '.', '-'",
                "Unknown configuration source.colour (allowed here: " + e.problems().stream()
                        .filter(p -> p.startsWith("Unknown")).findFirst().orElseThrow().split("allowed here: ")[1].replace(")", "") + ")",
                "Invalid value jdbc:mysql://x/y for configuration source.url: CDC needs a jdbc:postgresql://host:port/database URL",
                "Invalid value orders for configuration source.tables[0]: expected schema.table",
                "Invalid value soon for configuration source.pollIntervalMs: expected a whole number",
                "Missing value for configuration kafka.bootstrapServers",
                "Invalid value 0 for configuration kafka.partitions: must be between 1 and 10000",
                "Invalid value replica.db for configuration target.url: expected a JDBC URL such as jdbc:sqlite:replica.db");
        assertThat(e.getMessage()).startsWith("invalid configuration bad.yaml:");
    }

    @Test
    void missingEnvironmentVariableIsNamed() {
        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> PipelineConfigParser.parse(GOOD, "test.yaml", Path.of("."), Map.<String, String>of()::get));
        assertThat(e.problems()).containsExactly("Missing environment variable PGPASSWORD for configuration source.password");
    }

    @Test
    void excludedColumnsNameAColumnOfACapturedTable() {
        PipelineConfig c = PipelineConfigParser.parse(GOOD.replace("  tables: [public.orders, \"sales.line items\"]\n",
                "  tables: [public.orders, \"sales.line items\"]\n  excludeColumns: [public.orders.card_number, \"sales.line items.note\"]\n"),
                "test.yaml", Path.of("."), Map.of("PGPASSWORD", "s")::get);
        assertThat(c.source().excludeColumns()).containsExactly(
                new SourceConfig.ColumnId(new TableId("public", "orders"), "card_number"),
                new SourceConfig.ColumnId(new TableId("sales", "line items"), "note"));
        assertThat(c.source().excludes(new TableId("public", "orders"), "card_number")).isTrue();
        assertThat(c.source().excludes(new TableId("public", "orders"), "id")).isFalse();
        assertThat(PipelineConfigParser.parse(GOOD, "test.yaml", Path.of("."), Map.of("PGPASSWORD", "s")::get).source().excludeColumns())
                .as("default: none").isEmpty();
    }

    @Test
    void anExcludedColumnOfATableNotCapturedOrWithoutATableIsRefusedNamingTheEntry() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> PipelineConfigParser.parse(
                GOOD.replace("  tables: [public.orders, \"sales.line items\"]\n",
                        "  tables: [public.orders, \"sales.line items\"]\n  excludeColumns: [public.invoices.total, orders_total]\n"),
                "test.yaml", Path.of("."), Map.of("PGPASSWORD", "s")::get));
        assertThat(e.getMessage())
                .contains("source.excludeColumns[0]: table public.invoices is not in source.tables")
                .contains("source.excludeColumns[1]: expected schema.table.column");
        ConfigException notAList = catchThrowableOfType(ConfigException.class, () -> PipelineConfigParser.parse(
                GOOD.replace("  tables: [public.orders, \"sales.line items\"]\n",
                        "  tables: [public.orders, \"sales.line items\"]\n  excludeColumns: public.orders.note\n"),
                "test.yaml", Path.of("."), Map.of("PGPASSWORD", "s")::get));
        assertThat(notAList.getMessage()).contains("source.excludeColumns: expected a list of schema.table.column");
    }

    @Test
    void tablesWrittenAsOneStringSayExpectedAList() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> PipelineConfigParser.parse(
                GOOD.replace("[public.orders, \"sales.line items\"]", "public.orders"), "test.yaml", Path.of("."), Map.of("PGPASSWORD", "s")::get));
        assertThat(e.problems()).containsExactly(
                "Invalid value public.orders for configuration source.tables: expected a list such as [public.orders, public.customers]");
    }

    @Test
    void yamlSyntaxErrorsGiveLineAndColumn() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> PipelineConfigParser.parse(
                "name: a\nsource:\n  url: [jdbc:postgresql://h/db\n  tables: x\n", "p.yaml", Path.of("."), Map.<String, String>of()::get));
        assertThat(e.problems()).singleElement().asString().matches("not valid YAML at line \\d+, column \\d+: .+");
    }

    @Test
    void urlCredentialsInAnInvalidValueAreMasked() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> PipelineConfigParser.parse(
                GOOD.replace("jdbc:postgresql://db.example:6543/app", "jdbc:mysql://u:pw1@h/db?password=pw2&ssl=true"), "test.yaml",
                Path.of("."), Map.of("PGPASSWORD", "s")::get));
        assertThat(e.getMessage()).doesNotContain("pw1").doesNotContain("pw2")
                .contains("Invalid value jdbc:mysql://u:[hidden]@h/db?password=[hidden]&ssl=true for configuration source.url");
    }

    @Test
    void aTargetTidemarkCannotWriteIsRefusedListingTheSupportedOnes() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> PipelineConfigParser.parse(
                GOOD.replace("jdbc:sqlite:${DATA_DIR:-/var/lib/tidemark}/replica.db", "jdbc:oracle:thin:@h:1521/x"), "test.yaml",
                Path.of("."), Map.of("PGPASSWORD", "s")::get));
        assertThat(e.problems()).singleElement().asString().startsWith("Invalid configuration target.url: unsupported target jdbc:oracle")
                .contains("supported: jdbc:sqlite, jdbc:postgresql, jdbc:mariadb");
    }

    @Test
    void relativePathsFollowTheConfigFileNotTheCurrentDirectory() {
        PipelineConfig c = PipelineConfigParser.parse(GOOD.replace("${DATA_DIR:-/var/lib/tidemark}/replica.db", "data/replica.db")
                + "stateDir: state\n", "test.yaml", Path.of("/etc/tidemark"), Map.of("PGPASSWORD", "s")::get);
        assertThat(c.target().jdbcUrl()).isEqualTo("jdbc:sqlite:/etc/tidemark/data/replica.db");
        assertThat(c.stateDir()).isEqualTo(Path.of("/etc/tidemark/state"));
    }

    /** The example file says it shows every default: with its optional keys removed it must parse to the same thing. */
    @Test
    void theExamplePipelineShowsTheDefaults() throws Exception {
        Path example = Path.of("..", "docs", "examples", "pipeline.yaml");
        PipelineConfig shown = PipelineConfigParser.parse(java.nio.file.Files.readString(example), "pipeline.yaml", Path.of("/x"),
                Map.<String, String>of()::get);
        PipelineConfig defaults = PipelineConfigParser.parse("""
                name: orders
                source:
                  url: jdbc:postgresql://127.0.0.1:5432/app
                  tables: [public.orders, public.customers]
                kafka:
                  bootstrapServers: 127.0.0.1:9092
                target:
                  url: jdbc:sqlite:replica.db
                """, "minimal.yaml", Path.of("/x"), Map.<String, String>of()::get);
        assertThat(shown).isEqualTo(defaults);
        assertThat(shown.target().deadLetterTopic()).as("dead-letter topic off by default").isNull();
    }

    /** The example file shows every key the parser accepts, in its section (optional ones may be commented out). */
    @Test
    void theExamplePipelineShowsEveryKey() throws Exception {
        List<String> lines = java.nio.file.Files.readAllLines(Path.of("..", "docs", "examples", "pipeline.yaml"));
        Map<String, java.util.Set<String>> sections = Map.of("source", PipelineConfigParser.SOURCE, "kafka", PipelineConfigParser.KAFKA,
                "target", PipelineConfigParser.TARGET, "observability", PipelineConfigParser.OBSERVABILITY, "reconcile",
                PipelineConfigParser.RECONCILE);
        List<String> missing = new java.util.ArrayList<>();
        PipelineConfigParser.TOP.stream().filter(k -> lines.stream().noneMatch(l -> l.matches("(# )?" + k + ":.*")))
                .forEach(missing::add);
        sections.forEach((section, keys) -> {
            List<String> block = sectionLines(lines, section);
            keys.stream().filter(k -> block.stream().noneMatch(l -> l.matches("#?\\s+(# )?" + k + ":.*")))
                    .forEach(k -> missing.add(section + "." + k));
        });
        assertThat(lines).as("source.heartbeat.interval").anyMatch(l -> l.matches("\\s+interval:.*"));
        assertThat(missing).as("keys docs/examples/pipeline.yaml does not show").isEmpty();
    }

    /** The lines below top-level key {@code section} (commented out or not), up to the next top-level key. */
    private static List<String> sectionLines(List<String> lines, String section) {
        List<String> out = new java.util.ArrayList<>();
        boolean in = false;
        for (String l : lines) {
            if (l.matches("(# )?[A-Za-z]+:.*")) {
                in = l.matches("(# )?" + section + ":.*");
            } else if (in) {
                out.add(l);
            }
        }
        return out;
    }

    @Test
    void heartbeatsDefaultToTenSecondsAndCanBeSetOrTurnedOff() {
        Map<String, String> env = Map.of("PGPASSWORD", "s");
        assertThat(PipelineConfigParser.parse(GOOD, "t.yaml", Path.of("."), env::get).source().heartbeatInterval())
                .isEqualTo(java.time.Duration.ofSeconds(10));
        String withHeartbeat = GOOD.replace("  user: cdc\n", "  user: cdc\n  heartbeat: {interval: HB}\n");
        assertThat(PipelineConfigParser.parse(withHeartbeat.replace("HB", "500ms"), "t.yaml", Path.of("."), env::get).source()
                .heartbeatInterval()).isEqualTo(java.time.Duration.ofMillis(500));
        SourceConfig off = PipelineConfigParser.parse(withHeartbeat.replace("HB", "off"), "t.yaml", Path.of("."), env::get).source();
        assertThat(off.heartbeats()).isFalse();
        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> PipelineConfigParser.parse(withHeartbeat.replace("HB", "soon"), "t.yaml", Path.of("."), env::get));
        assertThat(e.problems()).singleElement().asString().startsWith("Invalid value soon for configuration source.heartbeat.interval: ");
    }

    @Test
    void debeziumSettingsPassThroughAndEachOwnedOneIsRefusedNamingItsKey() {
        Map<String, String> env = Map.of("PGPASSWORD", "s", "MASK", "6");
        String yaml = GOOD.replace("  user: cdc\n", "  user: cdc\n  debezium:\n    column.mask.with.${MASK}.chars: public.orders.card\n"
                + "    snapshot.mode: no_data\n");
        SourceConfig source = PipelineConfigParser.parse(yaml, "t.yaml", Path.of("."), env::get).source();
        assertThat(source.debezium()).containsExactly(Map.entry("column.mask.with.${MASK}.chars", "public.orders.card"),
                Map.entry("snapshot.mode", "no_data"));
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> PipelineConfigParser.parse(
                yaml.replace("    snapshot.mode: no_data\n", "    slot.name: other\n    offset.storage: x\n    snapshot.mode: always\n"),
                "t.yaml", Path.of("."), env::get));
        assertThat(e.problems()).hasSize(3).allSatisfy(line -> assertThat(line).startsWith("Refused configuration source.debezium."));
        assertThat(e.problems()).anySatisfy(line -> assertThat(line).startsWith("Refused configuration source.debezium.slot.name: "))
                .anySatisfy(line -> assertThat(line).startsWith("Refused configuration source.debezium.offset.storage: "))
                .anySatisfy(line -> assertThat(line).startsWith("Refused configuration source.debezium.snapshot.mode: "));
    }
}
