package dev.tidemark.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RandomScenarioTest {

    @Test
    void aSeedAlwaysTellsTheSameStory() {
        RandomScenario a = new RandomScenario(7);
        RandomScenario b = new RandomScenario(7);
        assertThat(b.initialRows()).isEqualTo(a.initialRows());
        assertThat(b.runs()).isEqualTo(a.runs());
        for (int run = 2; run <= a.runs(); run++) {
            assertThat(b.stepsBefore(run)).isEqualTo(a.stepsBefore(run));
        }
        assertThat(new RandomScenario(8).stepsBefore(2)).isNotEqualTo(a.stepsBefore(2));
    }

    @Test
    void thirtySeedsExerciseEveryIntent() {
        Set<ScenarioStep.Intent> seen = EnumSet.noneOf(ScenarioStep.Intent.class);
        Set<Cause> predicted = EnumSet.noneOf(Cause.class);
        for (long seed = 1; seed <= 30; seed++) {
            RandomScenario s = new RandomScenario(seed);
            assertThat(s.initialRows()).hasSize(RandomScenario.ROWS);
            assertThat(s.runs()).isBetween(3, 5);
            for (int run = 2; run <= s.runs(); run++) {
                s.stepsBefore(run).forEach(step -> seen.add(step.intent()));
            }
            new CauseAttribution(s).expected().values().forEach(d -> predicted.add(d.cause()));
        }
        assertThat(seen).containsExactlyInAnyOrder(ScenarioStep.Intent.values());
        assertThat(predicted).containsExactlyInAnyOrder(Cause.BACKDATED_OR_LATE_ROW, Cause.DELETE, Cause.UPDATE_NOT_TOUCHING_CURSOR,
                Cause.EQUAL_TIMESTAMP_BOUNDARY, Cause.LONG_TRANSACTION);
    }

    /**
     * Replays each seed against an independent model of the committed rows and the stored watermark: every step's
     * intent is true of the values it carries.
     */
    @Test
    void everyIntentIsTrueByConstruction() {
        for (long seed = 1; seed <= 30; seed++) {
            RandomScenario s = new RandomScenario(seed);
            Map<Long, LocalDateTime> committed = new HashMap<>();
            Set<Long> everUsed = new HashSet<>();
            s.initialRows().forEach(r -> {
                committed.put(r.invoiceId(), r.lastModified());
                everUsed.add(r.invoiceId());
            });
            LocalDateTime watermark = max(committed);
            for (int run = 2; run <= s.runs(); run++) {
                String where = "seed " + seed + " before run " + run + ": ";
                Map<Long, LocalDateTime> afterRun = new HashMap<>();
                LocalDateTime longStamp = null;
                boolean readPast = true;
                for (ScenarioStep step : s.stepsBefore(run)) {
                    String at = where + step.describe();
                    step.keys().forEach(k -> assertThat(afterRun).as(at + " touches a row a long transaction holds").doesNotContainKey(k));
                    if (step instanceof ScenarioStep.Insert i) {
                        assertThat(everUsed.add(i.row().invoiceId())).as(at + " reuses a key").isTrue();
                        assertThat(i.row().lastModified()).as(at).isAfter(max(committed));
                        committed.put(i.row().invoiceId(), i.row().lastModified());
                        readPast = readPast || longStamp != null && i.row().lastModified().isAfter(longStamp);
                    } else if (step instanceof ScenarioStep.Update u) {
                        assertThat(committed).as(at + " updates a row that is not there").containsKey(u.key());
                        if (u.touchesCursor()) {
                            assertThat(u.lastModified()).as(at).isAfter(max(committed));
                            committed.put(u.key(), u.lastModified());
                            readPast = readPast || longStamp != null && u.lastModified().isAfter(longStamp);
                        }
                    } else if (step instanceof ScenarioStep.Delete d) {
                        assertThat(committed.remove(d.key())).as(at + " deletes a row that is not there").isNotNull();
                    } else if (step instanceof ScenarioStep.BackdatedInsert b) {
                        assertThat(everUsed.add(b.row().invoiceId())).as(at + " reuses a key").isTrue();
                        assertThat(b.row().lastModified()).as(at + " is below the watermark " + watermark).isBefore(watermark);
                        committed.put(b.row().invoiceId(), b.row().lastModified());
                    } else if (step instanceof ScenarioStep.EqualTimestampBoundary e) {
                        assertThat(everUsed.add(e.row().invoiceId())).as(at + " reuses a key").isTrue();
                        assertThat(e.row().lastModified()).as(at).isEqualTo(watermark);
                        committed.put(e.row().invoiceId(), e.row().lastModified());
                    } else if (step instanceof ScenarioStep.LongTransaction lt) {
                        assertThat(run).as(at + ": a later run must follow").isLessThan(s.runs());
                        for (ScenarioStep w : lt.writes()) {
                            LocalDateTime stamp = w instanceof ScenarioStep.Insert i ? i.row().lastModified() : ((ScenarioStep.Update) w).lastModified();
                            longStamp = stamp;
                            if (w instanceof ScenarioStep.Insert i) {
                                assertThat(everUsed.add(i.row().invoiceId())).as(at + " reuses a key").isTrue();
                            } else {
                                assertThat(committed).as(at).containsKey(w.keys().get(0));
                            }
                            afterRun.put(w.keys().get(0), stamp);
                        }
                        readPast = false;
                    }
                }
                assertThat(readPast).as(where + "a row stamped after the long transaction's stamp commits before the run").isTrue();
                LocalDateTime max = max(committed);
                if (max.isAfter(watermark)) {
                    watermark = max;
                }
                if (longStamp != null) {
                    assertThat(longStamp).as(where + "the run stores a watermark above the long transaction's stamp").isBefore(watermark);
                }
                committed.putAll(afterRun);
            }
        }
    }

    private static LocalDateTime max(Map<Long, LocalDateTime> rows) {
        return rows.values().stream().max(LocalDateTime::compareTo).orElseThrow();
    }

    @Test
    void scenariosAreChosenByName() {
        assertThat(Scenario.named("invoices", 0)).isInstanceOf(InvoicesScenario.class);
        assertThat(Scenario.named("random", 5).seed()).hasValue(5L);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Scenario.named("orders", 0))
                .hasMessage("unknown scenario 'orders' (expected invoices or random)");
    }

    @Test
    void theInvoicesScenarioIsTheRecipe() {
        InvoicesScenario s = new InvoicesScenario();
        List<InvoiceRow> rows = s.initialRows();
        assertThat(rows).hasSize(412);
        assertThat(rows.get(0).invoiceDate()).isEqualTo(LocalDateTime.of(2009, 1, 1, 0, 0));
        assertThat(rows.get(411).lastModified()).isEqualTo(LocalDateTime.of(2013, 12, 22, 0, 0));
        assertThat(s.stepsBefore(2)).isEmpty();
        assertThat(s.stepsBefore(3)).extracting(ScenarioStep::describe).containsExactly(
                "insert 413 (LastModified 2014-01-05T00:00)",
                "insert 414 (LastModified 2014-01-05T00:00)",
                "update 10 (Total 99.00, LastModified 2014-01-06T00:00)",
                "delete 20",
                "insert 415 backdated (LastModified 2013-06-01T00:00)");
    }
}
