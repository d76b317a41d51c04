package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CaptureFailuresTest {
    @Test
    void aValueDebeziumCouldNotConvertIsNamedByTableColumnAndTypeWithTheWayOn() {
        RuntimeException debezium = new RuntimeException("Error while processing event",
                new IllegalStateException("Failed to properly convert data value for 'public.line items.v' of type numeric"));
        assertThat(CaptureFailures.conversion(debezium)).contains("capture stopped: table public.line items column v (type numeric) "
                + "holds a value that cannot be carried exactly in a change event (for numeric: NaN or ±Infinity, which have no "
                + "exact decimal form); nothing from that change on was sent. Leave the column out of capture "
                + "(source.excludeColumns: [public.line items.v]) and start capture again");
    }

    @Test
    void anEventKafkaRefusedAsTooLargeIsNamedByKeyTopicAndSizeWithTheWaysOn() {
        String line = CaptureFailures.tooLarge("shop.public.docs", "Struct{id=3}", java.util.Map.of("lsn", 42L), 2_000_123, 1_048_576,
                "The message is 2000123 bytes when serialized which is larger than 1048576");
        assertThat(line).doesNotContain("\n").startsWith("capture stopped: ").contains("Struct{id=3}").contains("shop.public.docs")
                .contains("2000123 bytes").contains("1048576").contains("max.request.size").contains("source.excludeColumns")
                .contains("lsn=42");
    }

    @Test
    void otherFailuresAreNotConversions() {
        assertThat(CaptureFailures.conversion(new IllegalStateException("connection refused"))).isEmpty();
        assertThat(CaptureFailures.conversion(new IllegalStateException((String) null))).isEmpty();
    }
}
