package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyOrderTest {

    @Test
    void textSortsByCodePointWhichIsUtf8ByteOrder() {
        String[] words = {"b", "a", "B", "é", "z", "😀", "\uFFFD", "ab", "", "Z"};
        KeyOrder order = new KeyOrder(List.of(ValueKind.TEXT));
        String[] byOrder = words.clone();
        Arrays.sort(byOrder, (x, y) -> order.compare(order.sortKey(new String[] {x}), order.sortKey(new String[] {y})));
        String[] byBytes = words.clone();
        Arrays.sort(byBytes, (x, y) -> Arrays.compareUnsigned(x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8)));
        assertThat(byOrder).containsExactly(byBytes);
    }

    @Test
    void numbersSortByValueAndCompositeKeysColumnByColumn() {
        KeyOrder order = new KeyOrder(List.of(ValueKind.INTEGER, ValueKind.DECIMAL));
        assertThat(order.compare(order.sortKey(new String[] {"9", "1"}), order.sortKey(new String[] {"10", "0"}))).isNegative();
        assertThat(order.compare(order.sortKey(new String[] {"10", "2.5"}), order.sortKey(new String[] {"10", "10"}))).isNegative();
        assertThat(order.compare(order.sortKey(new String[] {"-3", "1"}), order.sortKey(new String[] {"-3", "1"}))).isZero();
    }
}
