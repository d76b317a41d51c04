package dev.tidemark.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CauseAttributionTest {
    private static final LocalDateTime T0 = LocalDateTime.of(2022, 1, 1, 0, 0);

    /** Rows 1..3 stamped T0+1h … T0+3h: run 1 stores T0+3h. */
    private static List<InvoiceRow> rows() {
        return List.of(row(1, 1), row(2, 2), row(3, 3));
    }

    private static InvoiceRow row(long id, int hours) {
        LocalDateTime t = T0.plusHours(hours);
        return InvoiceRow.invoice(id, t, t, BigDecimal.valueOf(id * 100, 2));
    }

    private static ScenarioStep.Update touching(long key, int hours) {
        return new ScenarioStep.Update(key, new BigDecimal("42.00"), T0.plusHours(hours));
    }

    private static ScenarioStep.Update notTouching(long key) {
        return new ScenarioStep.Update(key, new BigDecimal("43.00"), null);
    }

    private static Map<Long, Difference> expected(int runs, Map<Integer, List<ScenarioStep>> steps) {
        return new CauseAttribution(new ScriptedScenario("t", "t", rows(), runs, steps)).expected();
    }

    @Test
    void theInvoicesRecipePredictsTheBackdatedRowMissingAndTheDeletedRowSurplus() {
        Map<Long, Difference> e = new CauseAttribution(new InvoicesScenario()).expected();
        assertThat(e).containsOnlyKeys(20L, 415L);
        assertThat(e.get(415L).kind()).isEqualTo(Difference.Kind.MISSING);
        assertThat(e.get(415L).cause()).isEqualTo(Cause.BACKDATED_OR_LATE_ROW);
        assertThat(e.get(415L).detail()).isEqualTo("before run 3: insert 415 backdated (LastModified 2013-06-01T00:00)");
        assertThat(e.get(20L).kind()).isEqualTo(Difference.Kind.SURPLUS);
        assertThat(e.get(20L).cause()).isEqualTo(Cause.DELETE);
    }

    @Test
    void eachInvisibleStepExplainsItsDifference() {
        Map<Long, Difference> e = expected(3, Map.of(
                2, List.of(notTouching(1),
                        new ScenarioStep.EqualTimestampBoundary(row(10, 3)),
                        new ScenarioStep.BackdatedInsert(row(11, 0)),
                        new ScenarioStep.LongTransaction(List.of(touching(2, 4), new ScenarioStep.Insert(row(12, 4)))),
                        new ScenarioStep.Insert(row(13, 5))),
                3, List.of(new ScenarioStep.Delete(3))));
        assertThat(e).containsOnlyKeys(1L, 2L, 3L, 10L, 11L, 12L);
        assertThat(e.get(1L)).extracting(Difference::kind, Difference::cause)
                .containsExactly(Difference.Kind.CHANGED, Cause.UPDATE_NOT_TOUCHING_CURSOR);
        assertThat(e.get(2L)).extracting(Difference::kind, Difference::cause)
                .containsExactly(Difference.Kind.CHANGED, Cause.LONG_TRANSACTION);
        assertThat(e.get(2L).detail()).contains("in a long transaction committed after run 2");
        assertThat(e.get(3L)).extracting(Difference::kind, Difference::cause).containsExactly(Difference.Kind.SURPLUS, Cause.DELETE);
        assertThat(e.get(10L)).extracting(Difference::kind, Difference::cause)
                .containsExactly(Difference.Kind.MISSING, Cause.EQUAL_TIMESTAMP_BOUNDARY);
        assertThat(e.get(11L)).extracting(Difference::kind, Difference::cause)
                .containsExactly(Difference.Kind.MISSING, Cause.BACKDATED_OR_LATE_ROW);
        assertThat(e.get(12L)).extracting(Difference::kind, Difference::cause)
                .containsExactly(Difference.Kind.MISSING, Cause.LONG_TRANSACTION);
    }

    @Test
    void aLaterCopyCoversEverythingBeforeIt() {
        Map<Long, Difference> e = expected(4, Map.of(
                // same period: the run after copies the row as it is then, the invisible update included
                2, List.of(new ScenarioStep.Insert(row(10, 5)), notTouching(10),
                        // inserted and deleted before any run saw it: in neither
                        new ScenarioStep.Insert(row(11, 6)), new ScenarioStep.Delete(11),
                        new ScenarioStep.BackdatedInsert(row(12, 0)),
                        new ScenarioStep.LongTransaction(List.of(new ScenarioStep.Insert(row(13, 7)))),
                        new ScenarioStep.Insert(row(14, 8))),
                // a cursor-stamping update brings the backdated row and the long transaction's row in
                3, List.of(touching(12, 9), touching(13, 10), notTouching(1)),
                4, List.of(touching(1, 11))));
        assertThat(e).isEmpty();
    }

    @Test
    void theFirstUnseenChangeIsTheCause() {
        Map<Long, Difference> e = expected(4, Map.of(
                2, List.of(notTouching(1), new ScenarioStep.Insert(row(10, 5))),
                3, List.of(new ScenarioStep.LongTransaction(List.of(touching(1, 6))), new ScenarioStep.Insert(row(11, 7)))));
        assertThat(e.get(1L)).extracting(Difference::kind, Difference::cause)
                .containsExactly(Difference.Kind.CHANGED, Cause.UPDATE_NOT_TOUCHING_CURSOR);
    }

    @Test
    void aDeleteOfARowNoRunCopiedLeavesNothingBehind() {
        Map<Long, Difference> e = expected(3, Map.of(
                2, List.of(new ScenarioStep.BackdatedInsert(row(10, 0))),
                3, List.of(new ScenarioStep.Delete(10), notTouching(2), new ScenarioStep.Delete(2))));
        assertThat(e).containsOnlyKeys(2L);
        assertThat(e.get(2L).cause()).as("surplus because deleted, whatever happened before").isEqualTo(Cause.DELETE);
    }

    @Test
    void observedDifferencesTheIntentsDoNotPredictAreUnexplained() {
        CauseAttribution a = new CauseAttribution(new InvoicesScenario());
        assertThat(a.explainWatermark("415", Difference.Kind.MISSING).cause()).isEqualTo(Cause.BACKDATED_OR_LATE_ROW);
        Difference wrongKind = a.explainWatermark("415", Difference.Kind.CHANGED);
        assertThat(wrongKind.cause()).isEqualTo(Cause.UNEXPLAINED);
        assertThat(wrongKind.detail()).isEqualTo("the scenario predicts missing (backdated or late row)");
        Difference unpredicted = a.explainWatermark("10", Difference.Kind.CHANGED);
        assertThat(unpredicted.cause()).as("10 was corrected with a new LastModified: run 3 copies it").isEqualTo(Cause.UNEXPLAINED);
        assertThat(unpredicted.detail()).isEqualTo("no step of the scenario explains it");
        assertThat(CauseAttribution.explainCdc("415", Difference.Kind.MISSING).cause()).isEqualTo(Cause.UNEXPLAINED);
    }
}
