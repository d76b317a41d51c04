package dev.tidemark.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.jdbc.ValueKind;
import dev.tidemark.reconcile.RowFormat.KeyHash;
import dev.tidemark.reconcile.RowFormat.Keyed;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

class MergeJoinTest {

    @Test
    void keysOnOneSideAreMissingOrSurplusAndDifferentHashesAreChanged() throws Exception {
        List<KeyHash> source = List.of(new KeyHash(1, 10), new KeyHash(2, 20), new KeyHash(4, 40), new KeyHash(6, 60));
        List<KeyHash> target = List.of(new KeyHash(2, 20), new KeyHash(3, 30), new KeyHash(4, 41), new KeyHash(7, 70));
        Differences found = new Differences(100);
        MergeJoin.Counts counts = MergeJoin.join(rows(source), rows(target), new RowFormat.IntegerKeys(), found);
        assertThat(counts).isEqualTo(new MergeJoin.Counts(4, 4));
        assertThat(found.missing).containsExactly(RowKey.of("1"), RowKey.of("6"));
        assertThat(found.surplus).containsExactly(RowKey.of("3"), RowKey.of("7"));
        assertThat(found.changed).containsExactly(RowKey.of("4"));
    }

    @Test
    void anEmptySideMakesEveryKeyOfTheOtherMissingOrSurplus() throws Exception {
        List<KeyHash> some = List.of(new KeyHash(-5, 1), new KeyHash(5, 2));
        Differences missing = new Differences(100);
        assertThat(MergeJoin.join(rows(some), rows(List.of()), new RowFormat.IntegerKeys(), missing)).isEqualTo(new MergeJoin.Counts(2, 0));
        assertThat(missing.missing).containsExactly(RowKey.of("-5"), RowKey.of("5"));
        Differences surplus = new Differences(100);
        assertThat(MergeJoin.join(rows(List.of()), rows(some), new RowFormat.IntegerKeys(), surplus)).isEqualTo(new MergeJoin.Counts(0, 2));
        assertThat(surplus.surplus).containsExactly(RowKey.of("-5"), RowKey.of("5"));
        Differences none = new Differences(100);
        assertThat(MergeJoin.join(rows(List.<KeyHash>of()), rows(List.of()), new RowFormat.IntegerKeys(), none)).isEqualTo(new MergeJoin.Counts(0, 0));
        assertThat(none.total()).isZero();
    }

    @Test
    void compositeTextKeysMergeInKeyOrderNotStringOrder() throws Exception {
        RowFormat.TextKeys format = new RowFormat.TextKeys(new KeyOrder(List.of(ValueKind.INTEGER, ValueKind.TEXT)), List.of("n", "s"));
        // 9 sorts before 10 as a number, though not as text
        List<Keyed> source = List.of(keyed(1, "9", "a"), keyed(2, "10", "a"), keyed(3, "10", "b"));
        List<Keyed> target = List.of(keyed(1, "9", "a"), keyed(9, "10", "b"), keyed(4, "11", "a"));
        Differences found = new Differences(100);
        MergeJoin.Counts counts = MergeJoin.join(rows(source), rows(target), format, found);
        assertThat(counts).isEqualTo(new MergeJoin.Counts(3, 3));
        assertThat(found.missing).containsExactly(RowKey.of("10", "a"));
        assertThat(found.changed).containsExactly(RowKey.of("10", "b"));
        assertThat(found.surplus).containsExactly(RowKey.of("11", "a"));
    }

    @Test
    void keysBeyondTheLimitAreCountedNotListed() throws Exception {
        List<KeyHash> source = List.of(new KeyHash(1, 1), new KeyHash(2, 2), new KeyHash(3, 3));
        Differences found = new Differences(2);
        MergeJoin.join(rows(source), rows(List.of()), new RowFormat.IntegerKeys(), found);
        assertThat(found.missing).containsExactly(RowKey.of("1"), RowKey.of("2"));
        assertThat(found.missingCount).isEqualTo(3);
        assertThat(found.unlisted()).containsExactly(1, 0, 0);
    }

    private static Keyed keyed(long hash, String... key) {
        return new Keyed(key, new KeyOrder(List.of(ValueKind.INTEGER, ValueKind.TEXT)).sortKey(key), hash);
    }

    private static <R> MergeJoin.Rows<R> rows(List<R> list) {
        Iterator<R> it = list.iterator();
        return () -> it.hasNext() ? it.next() : null;
    }
}
