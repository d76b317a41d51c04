package dev.tidemark.connector.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReconcileSectionTest {
    private static final String BASE = """
            name: orders
            source:
              url: jdbc:postgresql://db:5432/app
              tables: [public.orders, public.customers]
            kafka:
              bootstrapServers: k:9092
            target:
              url: jdbc:sqlite:replica.db
            """;

    private static PipelineConfig parse(String reconcile) {
        return PipelineConfigParser.parse(BASE + reconcile, "t.yaml", Path.of("/x"), Map.<String, String>of()::get);
    }

    private static ConfigException problems(String reconcile) {
        return catchThrowableOfType(ConfigException.class, () -> parse(reconcile));
    }

    @Test
    void absentIsOff() {
        assertThat(parse("").reconcile()).isEqualTo(ReconcileSchedule.OFF);
        assertThat(parse("").reconcile().enabled()).isFalse();
    }

    @Test
    void everyAloneGivesTheDefaults() {
        ReconcileSchedule r = parse("reconcile: {every: 1h}\n").reconcile();
        assertThat(r.enabled()).isTrue();
        assertThat(r.every()).isEqualTo(Duration.ofHours(1));
        assertThat(r.tables()).containsExactly(new TableId("public", "orders"), new TableId("public", "customers"));
        assertThat(r.settle()).isEqualTo(Duration.ofSeconds(5));
        assertThat(r.repair()).isEqualTo(ReconcileSchedule.Repair.REPORT);
        assertThat(r.maxDeleteShare()).isEqualTo(0.10);
        assertThat(r.budget()).as("budget defaults to the period").isEqualTo(Duration.ofHours(1));
    }

    @Test
    void everyKeyIsRead() {
        ReconcileSchedule r = parse("""
                reconcile:
                  every: 30m
                  tables: [public.customers]
                  settle: 2s
                  repair: auto
                  maxDeleteShare: 0.25
                  budget: 10m
                """).reconcile();
        assertThat(r).isEqualTo(new ReconcileSchedule(Duration.ofMinutes(30), java.util.List.of(new TableId("public", "customers")),
                Duration.ofSeconds(2), ReconcileSchedule.Repair.AUTO, 0.25, Duration.ofMinutes(10)));
        assertThat(parse("reconcile: {every: 1h, repair: off}\n").reconcile().repair()).as("YAML's unquoted off")
                .isEqualTo(ReconcileSchedule.Repair.OFF);
        assertThat(parse("reconcile: {every: 1h, maxDeleteShare: 5%}\n").reconcile().maxDeleteShare()).isEqualTo(0.05);
    }

    @Test
    void badValuesAreRefusedOneLineEachNamingTheKey() {
        ConfigException e = problems("""
                reconcile:
                  tables: [public.nope, orders]
                  settle: soon
                  repair: sometimes
                  maxDeleteShare: 150%
                  colour: blue
                """);
        assertThat(e.problems()).containsExactlyInAnyOrder(
                "Missing value for configuration reconcile.every",
                "Invalid value public.nope for configuration reconcile.tables[0]: not in source.tables [public.orders, public.customers]",
                "Invalid value orders for configuration reconcile.tables[1]: expected schema.table",
                "Invalid value soon for configuration reconcile.settle: " + reason("soon"),
                "Invalid value sometimes for configuration reconcile.repair: expected off, report or auto",
                "Invalid value 150% for configuration reconcile.maxDeleteShare: must be between 0% and 100%",
                "Unknown configuration reconcile.colour (allowed here: " + ReconcileSection.KEYS + ")");
    }

    @Test
    void periodsThatCannotWorkAreRefused() {
        assertThat(problems("reconcile: {every: 0 * * * *}\n").problems()).singleElement().asString()
                .isEqualTo("Invalid value 0 * * * * for configuration reconcile.every: cron expressions are not supported; give a period such as 1h or 30m");
        assertThat(problems("reconcile: {every: 500ms}\n").problems()).singleElement().asString()
                .isEqualTo("Invalid value 500ms for configuration reconcile.every: must be at least 1s");
        assertThat(problems("reconcile: {every: 10s, settle: 10s}\n").problems()).singleElement().asString()
                .isEqualTo("Invalid value 10s for configuration reconcile.settle: must be shorter than reconcile.every 10s");
        assertThat(problems("reconcile: {every: 10m, budget: 1h}\n").problems()).singleElement().asString()
                .isEqualTo("Invalid value 1h for configuration reconcile.budget: must be at most reconcile.every 10m (a run never overlaps the next one)");
        assertThat(problems("reconcile: {every: 1h, tables: []}\n").problems()).singleElement().asString()
                .startsWith("Invalid value [] for configuration reconcile.tables: list at least one table");
        assertThat(problems("reconcile: hourly\n").problems()).singleElement().asString().startsWith("Invalid value \"hourly\" for configuration reconcile");
    }

    private static String reason(String bad) {
        try {
            dev.tidemark.jdbc.Durations.parse(bad);
            return "";
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
