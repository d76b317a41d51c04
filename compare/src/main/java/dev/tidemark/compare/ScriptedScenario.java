package dev.tidemark.compare;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A scenario written out step by step: for tests of particular orderings, and for stories neither built-in tells.
 *
 * @param steps the steps before each run, by run number (2 … {@code runs})
 */
public record ScriptedScenario(String name, String description, List<InvoiceRow> initialRows, int runs,
                               Map<Integer, List<ScenarioStep>> steps) implements Scenario {
    public ScriptedScenario {
        initialRows = List.copyOf(initialRows);
        if (runs < 1) {
            throw new IllegalArgumentException("a scenario has at least one run, not " + runs);
        }
        TreeMap<Integer, List<ScenarioStep>> copy = new TreeMap<>();
        steps.forEach((run, s) -> {
            if (run < 2 || run > runs) {
                throw new IllegalArgumentException("steps can come before runs 2 … " + runs + ", not before run " + run);
            }
            copy.put(run, List.copyOf(s));
        });
        steps = java.util.Collections.unmodifiableMap(copy);
    }

    @Override
    public Optional<Long> seed() {
        return Optional.empty();
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public List<ScenarioStep> stepsBefore(int run) {
        return steps.getOrDefault(run, List.of());
    }
}
