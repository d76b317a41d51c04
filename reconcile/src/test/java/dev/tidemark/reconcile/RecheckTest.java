package dev.tidemark.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RecheckTest {

    @Test
    void onlyKeysStillDifferentStayAndTheirClassIsDecidedAgain() {
        Differences found = new Differences(10);
        found.missing(RowKey.of("1")); // arrived since: settles away
        found.missing(RowKey.of("2")); // still missing
        found.surplus(RowKey.of("3")); // deleted from the target since: settles away
        found.changed(RowKey.of("4")); // still changed
        found.changed(RowKey.of("5")); // deleted from the source since: now surplus
        found.surplus(RowKey.of("6")); // inserted on the source since, with other content: now changed
        Map<RowKey, Long> source = Map.of(RowKey.of("1"), 1L, RowKey.of("2"), 2L, RowKey.of("4"), 4L, RowKey.of("6"), 6L);
        Map<RowKey, Long> target = Map.of(RowKey.of("1"), 1L, RowKey.of("4"), 40L, RowKey.of("5"), 5L, RowKey.of("6"), 60L);

        Differences still = Recheck.still(found, source, target, 10);

        assertThat(still.missing).containsExactly(RowKey.of("2"));
        assertThat(still.surplus).containsExactly(RowKey.of("5"));
        assertThat(still.changed).containsExactly(RowKey.of("6"), RowKey.of("4")); // in the order listed: surplus before changed
        assertThat(still.total()).isEqualTo(4);
    }

    @Test
    void keysCountedBeyondTheLimitWereNeverListedSoTheirCountsCarryOver() {
        Differences found = new Differences(1);
        found.missing(RowKey.of("1"));
        found.missing(RowKey.of("2"));
        found.missing(RowKey.of("3"));
        found.changed(RowKey.of("7"));

        Differences still = Recheck.still(found, Map.of(), Map.of(), 1); // every listed key gone from both sides

        assertThat(still.listed()).isEmpty();
        assertThat(still.missingCount).isEqualTo(2);
        assertThat(still.surplusCount).isZero();
        assertThat(still.changedCount).isZero();
    }
}
