package dev.tidemark.compare;

import dev.tidemark.jdbc.UsageException;
import java.util.List;
import java.util.Optional;

/**
 * A reproducible story told to both capture modes: the {@code Invoice} table's initial rows, how many watermark runs,
 * and the changes made to the source before each run after the first. Deterministic: the same scenario (and seed)
 * always yields the same rows and steps.
 */
public sealed interface Scenario permits InvoicesScenario, RandomScenario, ScriptedScenario {

    /** {@code invoices} or {@code random}. */
    String name();

    /** The seed of a generated scenario. */
    Optional<Long> seed();

    /** One line for reports. */
    String describe();

    /** The rows the table holds before the first run. */
    List<InvoiceRow> initialRows();

    /** How many watermark runs (at least 1). */
    int runs();

    /** The changes made after run {@code run - 1} and before run {@code run}; empty for run 1 and quiet periods. */
    List<ScenarioStep> stepsBefore(int run);

    /** Picks a built-in scenario by name. */
    static Scenario named(String name, long seed) {
        return switch (name) {
            case "invoices" -> new InvoicesScenario();
            case "random" -> new RandomScenario(seed);
            default -> throw new UsageException("unknown scenario '" + name + "' (expected invoices or random)");
        };
    }
}
