package dev.tidemark.connector.watermark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.tidemark.connector.config.ConfigException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WatermarkConfigParserTest {

    @Test
    void parsesAPipelineWithDefaultsAndEnvironment() {
        WatermarkConfigParser.Parsed p = WatermarkConfigParser.parse(String.join("\n",
                "name: shop",
                "source: { url: 'jdbc:postgresql://127.0.0.1/shop', user: app, password: '${PW}' }",
                "target: { url: 'jdbc:sqlite:replica.db' }",
                "every: 15m",
                "defaults: { overlap: 1d, chunkSize: 500 }",
                "tables:",
                "  - table: public.orders",
                "    cursor: [updated_at, id]",
                "    softDelete: deleted",
                "  - table: public.events",
                "    cursor: seq",
                "    overlap: 100",
                "    settle: 0s"), "test.yaml", Map.of("PW", "s3cret")::get);
        assertThat(p.source().password().reveal()).isEqualTo("s3cret");
        assertThat(p.source().toString()).doesNotContain("s3cret");
        assertThat(p.every()).isEqualTo(Duration.ofMinutes(15));
        assertThat(p.tables()).containsExactly(
                new TableSpec("public.orders", List.of(), List.of("updated_at", "id"), null, "1d", null, "deleted", 500),
                new TableSpec("public.events", List.of(), List.of("seq"), null, "100", "0s", null, 500));
    }

    @Test
    void reportsEveryProblemAtOnceNamingItsKey() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> WatermarkConfigParser.parse(String.join("\n",
                "source: { url: 'postgres://x' }",
                "control: { url: 'jdbc:sqlite:c.db' }",
                "every: soon",
                "colour: blue",
                "tables:",
                "  - table: t",
                "    kind: sometimes",
                "    settle: later",
                "    chunkSize: 0"), "bad.yaml", k -> null));
        assertThat(e.problems()).containsExactlyInAnyOrder(
                "Invalid value postgres://x for configuration source.url: expected a JDBC URL",
                "Missing value for configuration target: direct mode writes into a JDBC target (or configure kafka)",
                "Invalid configuration control: in direct mode the control table lives in the target, committed with each chunk; "
                        + "a separate control database is for Kafka mode",
                "Invalid value soon for configuration every: 'soon' is not a duration (expected e.g. 500ms, 5s, 90m, 1h30m, 1d, 2w)",
                "Unknown configuration colour (allowed here: " + e.problems().stream().filter(p -> p.startsWith("Unknown configuration colour"))
                        .findFirst().orElseThrow().substring("Unknown configuration colour (allowed here: ".length()),
                "Missing value for configuration tables[0].cursor: the watermark column (or timestamp, id)",
                "Invalid value sometimes for configuration tables[0].kind: expected timestamp, id or timestamp+id",
                "Invalid value later for configuration tables[0].settle: 'later' is not a duration (expected e.g. 500ms, 5s, 90m, 1h30m, 1d, 2w)",
                "Invalid value 0 for configuration tables[0].chunkSize: must be at least 1");
    }

    /** Issue 12: without defaults.chunkSize (or without defaults at all) the documented defaults apply; this crashed. */
    @Test
    void everyDefaultAppliesWhenItsKeyIsAbsent() {
        for (String defaults : new String[] {"", "defaults: { overlap: 1d }\n", "defaults: {}\n"}) {
            WatermarkConfigParser.Parsed p = WatermarkConfigParser.parse("source: { url: 'jdbc:sqlite:src.db' }\n"
                    + "target: { url: 'jdbc:sqlite:replica.db' }\n" + defaults + "tables:\n  - { table: items, cursor: modified }\n",
                    "minimal.yaml", java.nio.file.Path.of("/srv/shop"), Map.<String, String>of()::get);
            assertThat(p.name()).isEqualTo("watermark");
            assertThat(p.tables()).singleElement().satisfies(t -> {
                assertThat(t.chunkSize()).as(defaults).isNull();
                assertThat(t.settle()).isNull();
            });
            assertThat(p.source().url()).as("relative to the file").isEqualTo("jdbc:sqlite:/srv/shop/src.db");
            assertThat(p.target().url()).isEqualTo("jdbc:sqlite:/srv/shop/replica.db");
        }
    }

    @Test
    void tablesWrittenAsOneStringSayExpectedAList() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> WatermarkConfigParser.parse(
                "source: { url: 'jdbc:sqlite:src.db' }\ntarget: { url: 'jdbc:sqlite:r.db' }\ntables: items\n", "w.yaml",
                Map.<String, String>of()::get));
        assertThat(e.problems()).singleElement().asString().startsWith("Invalid value items for configuration tables: expected a list");
    }
}
