package dev.tidemark.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecheckTest {
    static final List<String> COLUMNS = List.of("id", "label");

    static String[] row(String... values) {
        return values;
    }

    @Test
    void onlyKeysStillDifferentStayAndTheirClassIsDecidedAgain() {
        Differences found = new Differences(10);
        found.missing(RowKey.of("1")); // arrived since: settles away
        found.missing(RowKey.of("2")); // still missing
        found.surplus(RowKey.of("3")); // deleted from the target since: settles away
        found.changed(RowKey.of("4")); // still changed
        found.changed(RowKey.of("5")); // deleted from the source since: now surplus
        found.surplus(RowKey.of("6")); // inserted on the source since, with other content: now changed
        Map<RowKey, String[]> source = Map.of(RowKey.of("1"), row("1", "a"), RowKey.of("2"), row("2", "b"),
                RowKey.of("4"), row("4", "d"), RowKey.of("6"), row("6", null));
        Map<RowKey, String[]> target = Map.of(RowKey.of("1"), row("1", "a"), RowKey.of("4"), row("4", "D"),
                RowKey.of("5"), row("5", "e"), RowKey.of("6"), row("6", "f"));

        Differences still = Recheck.still(found, source, target, COLUMNS, 10);

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

        Differences still = Recheck.still(found, Map.of(), Map.of(), COLUMNS, 1); // every listed key gone from both sides

        assertThat(still.listed()).isEmpty();
        assertThat(still.missingCount).isEqualTo(2);
        assertThat(still.surplusCount).isZero();
        assertThat(still.changedCount).isZero();
    }

    @Test
    void changedKeysKeepTheColumnsThatDifferWithBothValues() {
        Differences found = new Differences(10);
        found.changed(RowKey.of("4"));
        found.surplus(RowKey.of("6"));
        Map<RowKey, String[]> source = Map.of(RowKey.of("4"), row("4", "d"), RowKey.of("6"), row("6", null));
        Map<RowKey, String[]> target = Map.of(RowKey.of("4"), row("4", "D"), RowKey.of("6"), row("6", "f"));

        Differences still = Recheck.still(found, source, target, COLUMNS, 10);

        assertThat(still.changedRows.get(RowKey.of("4")).columns())
                .containsExactly(new ChangedRow.ColumnChange("label", "d", "D"));
        assertThat(still.changedRows.get(RowKey.of("6")).columns()).as("SQL NULL against a value")
                .containsExactly(new ChangedRow.ColumnChange("label", null, "f"));
    }

    @Test
    void changedColumnsAreKeptOnlyForListedKeys() {
        Differences found = new Differences(1);
        found.changed(RowKey.of("4"));
        found.changed(RowKey.of("5"));
        found.changed(ChangedRow.of(RowKey.of("9"), COLUMNS, row("9", "x"), row("9", "y")));
        assertThat(found.changedCount).isEqualTo(3);
        assertThat(found.changedRows).isEmpty();
    }
}
