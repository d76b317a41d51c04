package dev.tidemark.sink.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.SinkException;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetTableNamesTest {
    static final TableId PUBLIC_ORDERS = new TableId("public", "orders");
    static final TableId SALES_ORDERS = new TableId("sales", "orders");

    @Test
    void theTargetTableIsTheNameWithoutItsSchema() {
        assertThat(TargetTableNames.of(SALES_ORDERS)).isEqualTo("orders");
    }

    @Test
    void tablesOfOneNameInTwoSchemasClashRegardlessOfCase() {
        assertThat(TargetTableNames.clash(List.of(PUBLIC_ORDERS, new TableId("public", "customers")))).isEmpty();
        assertThat(TargetTableNames.clash(List.of(PUBLIC_ORDERS, new TableId("public", "customers"), SALES_ORDERS)))
                .contains("public.orders and sales.orders would all be written to target table orders and their rows would merge");
        assertThat(TargetTableNames.clash(List.of(PUBLIC_ORDERS, new TableId("sales", "Orders")))).isPresent();
    }

    @Test
    void aSinkClaimsEachTargetTableForOneSourceTable() {
        TargetTableNames names = new TargetTableNames();
        names.claim(PUBLIC_ORDERS);
        names.claim(PUBLIC_ORDERS);
        assertThatThrownBy(() -> names.claim(SALES_ORDERS)).isInstanceOf(SinkException.class)
                .hasMessageStartingWith("table sales.orders: target table orders already receives public.orders;")
                .hasMessageContaining("target.url");
    }
}
