package dev.tidemark.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Explains each difference between the watermark target and the source from the scenario's intents.
 *
 * <p>The reasoning, per key: a run copies a row whole, so the target holds the row as it was at the last run that
 * copied it. A row is copied by the run right after a step the watermark can see (an {@link ScenarioStep.Intent#INSERT
 * INSERT} or a cursor-stamping {@link ScenarioStep.Intent#UPDATE UPDATE}; the initial rows by run 1), as long as the row
 * still exists at that run. Everything a key went through after its last copy was invisible to the watermark, and the
 * first of those steps is the cause:
 * <ul>
 *   <li><b>missing</b>: the row was never copied; the cause is the intent of the step that created it (backdated or
 *       late row, equal-timestamp boundary, long transaction);</li>
 *   <li><b>surplus</b>: the row was copied and then deleted: delete;</li>
 *   <li><b>changed</b>: the row was copied, then changed invisibly: the first such change (update that did not touch
 *       the cursor, long transaction).</li>
 * </ul>
 * {@link #expected()} is the same reasoning run forwards: the differences the intents predict. A difference that is
 * not predicted, or predicted as another kind, is {@link Cause#UNEXPLAINED}. Differences in a CDC target are always
 * unexplained: CDC carries every committed change.
 */
public final class CauseAttribution {
    /** A step on one key and the run it precedes (a long transaction's writes count for the run after their commit). */
    private record Placed(int run, ScenarioStep.Intent intent, String describe, boolean deletes) {
        boolean visible() {
            return Cause.ofWatermarkLoss(intent) == null;
        }
    }

    private final Map<Long, List<Placed>> byKey = new TreeMap<>();

    public CauseAttribution(Scenario scenario) {
        for (InvoiceRow r : scenario.initialRows()) {
            byKey.computeIfAbsent(r.invoiceId(), k -> new ArrayList<>())
                    .add(new Placed(1, ScenarioStep.Intent.INSERT, "initial row", false));
        }
        for (int run = 2; run <= scenario.runs(); run++) {
            for (ScenarioStep s : scenario.stepsBefore(run)) {
                if (s instanceof ScenarioStep.LongTransaction lt) {
                    // Written before this run, committed after it: the earliest run that could see it is the next one.
                    for (ScenarioStep w : lt.writes()) {
                        place(run + 1, ScenarioStep.Intent.LONG_TRANSACTION, w, "before run " + run + ": " + w.describe()
                                + " in a long transaction committed after run " + run);
                    }
                } else {
                    place(run, s.intent(), s, "before run " + run + ": " + s.describe());
                }
            }
        }
    }

    private void place(int run, ScenarioStep.Intent intent, ScenarioStep s, String describe) {
        for (Long k : s.keys()) {
            byKey.computeIfAbsent(k, x -> new ArrayList<>()).add(new Placed(run, intent, describe, s instanceof ScenarioStep.Delete));
        }
    }

    /** The differences the scenario's intents predict for the watermark target, by key. */
    public Map<Long, Difference> expected() {
        Map<Long, Difference> out = new TreeMap<>();
        for (Long key : byKey.keySet()) {
            predict(key).ifPresent(d -> out.put(key, d));
        }
        return out;
    }

    private Optional<Difference> predict(long key) {
        List<Placed> steps = byKey.getOrDefault(key, List.of());
        if (steps.isEmpty()) {
            return Optional.empty();
        }
        Placed last = steps.get(steps.size() - 1);
        if (last.deletes()) {
            // The target holds the key iff a run copied it before the delete: a visible step in an earlier period.
            boolean copied = steps.stream().anyMatch(p -> p.visible() && p.run() < last.run());
            return copied ? Optional.of(new Difference(Long.toString(key), Difference.Kind.SURPLUS, Cause.DELETE, last.describe()))
                    : Optional.empty();
        }
        int lastCopy = steps.stream().filter(Placed::visible).mapToInt(Placed::run).max().orElse(0);
        List<Placed> unseen = steps.stream().filter(p -> p.run() > lastCopy).toList();
        if (unseen.isEmpty()) {
            return Optional.empty();
        }
        Placed first = unseen.get(0);
        Difference.Kind kind = lastCopy == 0 ? Difference.Kind.MISSING : Difference.Kind.CHANGED;
        return Optional.of(new Difference(Long.toString(key), kind, Cause.ofWatermarkLoss(first.intent()), first.describe()));
    }

    /** The cause of an observed difference in the watermark target. */
    public Difference explainWatermark(String key, Difference.Kind kind) {
        Optional<Difference> expected;
        try {
            expected = predict(Long.parseLong(key));
        } catch (NumberFormatException e) {
            expected = Optional.empty();
        }
        if (expected.isPresent() && expected.get().kind() == kind) {
            return expected.get();
        }
        return new Difference(key, kind, Cause.UNEXPLAINED, expected.map(d -> "the scenario predicts " + d.kind().label()
                + " (" + d.cause() + ")").orElse("no step of the scenario explains it"));
    }

    /** A difference in the CDC target: never expected. */
    public static Difference explainCdc(String key, Difference.Kind kind) {
        return new Difference(key, kind, Cause.UNEXPLAINED, "CDC carries every committed change; this is a defect");
    }
}
