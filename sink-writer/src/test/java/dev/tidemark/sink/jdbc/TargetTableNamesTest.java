package dev.tidemark.sink.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.SinkException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetTableNamesTest {
    static final TableId PUBLIC_ORDERS = new TableId("public", "orders");
    static final TableId SALES_ORDERS = new TableId("sales", "orders");
    static final TableId CUSTOMERS = new TableId("public", "customers");

    @Test
    void theTargetTableIsTheExplicitNameElseTheNameWithoutItsSchema() {
        assertThat(TargetTableNames.DEFAULT.of(SALES_ORDERS)).isEqualTo("orders");
        TargetTableNames names = new TargetTableNames(Map.of(SALES_ORDERS, "sales_orders"));
        assertThat(names.of(SALES_ORDERS)).isEqualTo("sales_orders");
        assertThat(names.of(PUBLIC_ORDERS)).isEqualTo("orders");
    }

    @Test
    void tablesOfOneTargetTableClashRegardlessOfCase() {
        assertThat(TargetTableNames.DEFAULT.clashes(List.of(PUBLIC_ORDERS, CUSTOMERS))).isEmpty();
        assertThat(TargetTableNames.DEFAULT.clashes(List.of(PUBLIC_ORDERS, CUSTOMERS, SALES_ORDERS)))
                .extracting(TargetTableNames.Clash::describe)
                .containsExactly("public.orders and sales.orders would all be written to target table orders and their rows would merge");
        assertThat(TargetTableNames.DEFAULT.clashes(List.of(PUBLIC_ORDERS, new TableId("sales", "Orders")))).hasSize(1);
        assertThat(new TargetTableNames(Map.of(SALES_ORDERS, "sales_orders")).clashes(List.of(PUBLIC_ORDERS, SALES_ORDERS))).isEmpty();
        assertThat(new TargetTableNames(Map.of(SALES_ORDERS, "Customers")).clashes(List.of(CUSTOMERS, SALES_ORDERS)))
                .containsExactly(new TargetTableNames.Clash("customers", List.of(CUSTOMERS, SALES_ORDERS)));
    }

    @Test
    void theSuggestedNamesPartEveryClashAndAvoidNamesTaken() {
        TableId hrOrders = new TableId("hr", "orders");
        TableId salesOrdersTable = new TableId("public", "sales_orders");
        List<TableId> sources = List.of(PUBLIC_ORDERS, SALES_ORDERS, hrOrders, salesOrdersTable);
        Map<TableId, String> suggested = TargetTableNames.DEFAULT.suggestions(sources);
        assertThat(suggested).containsExactly(Map.entry(SALES_ORDERS, "sales_orders_2"), Map.entry(hrOrders, "hr_orders"));
        assertThat(new TargetTableNames(suggested).clashes(sources)).isEmpty();
        assertThat(TargetTableNames.DEFAULT.wayOut(suggested)).isEqualTo("add target.tables: {sales.orders: sales_orders_2, hr.orders: hr_orders}");
    }

    @Test
    void aSuggestedNameIsAlwaysOneTheTargetCanHold() {
        TableId dotted = new TableId("sales", "a.b");
        TableId longName = new TableId("s", "x".repeat(63));
        TableId own = new TableId("tidemark", "offsets");
        Map<TableId, String> suggested = TargetTableNames.DEFAULT.suggestions(List.of(new TableId("public", "a.b"), dotted,
                new TableId("public", "x".repeat(63)), longName, new TableId("public", "offsets"), own));
        assertThat(suggested).containsEntry(dotted, "sales_a_b").containsEntry(own, "t_tidemark_offsets");
        assertThat(suggested.get(longName)).hasSize(59).startsWith("s_xxx");
        assertThat(suggested.values()).allSatisfy(n -> assertThat(TargetTableNames.invalid(n)).isEmpty());
    }

    @Test
    void anExplicitNameMeetingADefaultOneIsTheOneRenamedAndTheWayOutKeepsTheOtherEntries() {
        TableId items = new TableId("public", "items");
        TargetTableNames names = new TargetTableNames(Map.of(items, "order_items", SALES_ORDERS, "orders"));
        Map<TableId, String> suggested = names.suggestions(List.of(SALES_ORDERS, PUBLIC_ORDERS, items));
        assertThat(suggested).containsExactly(Map.entry(SALES_ORDERS, "sales_orders"));
        assertThat(names.wayOut(suggested)).startsWith("set target.tables: {").contains("public.items: order_items")
                .contains("sales.orders: sales_orders");
        assertThat(new TargetTableNames(Map.of(), TargetTableNames.Syntax.CONNECT).wayOut(Map.of(SALES_ORDERS, "sales_orders")))
                .isEqualTo("set target.tables=sales.orders:sales_orders");
    }

    @Test
    void aNameTheTargetCannotHoldIsRefusedSaying() {
        assertThat(TargetTableNames.invalid("sales_orders")).isEmpty();
        assertThat(TargetTableNames.invalid("Order Items")).isEmpty();
        assertThat(TargetTableNames.invalid("")).contains("a target table name cannot be empty");
        assertThat(TargetTableNames.invalid(" orders")).hasValueSatisfying(w -> assertThat(w).contains("space"));
        assertThat(TargetTableNames.invalid("sales.orders")).hasValueSatisfying(w -> assertThat(w).contains("no schema"));
        assertThat(TargetTableNames.invalid("a\tb")).hasValueSatisfying(w -> assertThat(w).contains("control"));
        assertThat(TargetTableNames.invalid("x".repeat(64))).hasValueSatisfying(w -> assertThat(w).contains("63 bytes"));
        assertThat(TargetTableNames.invalid("ä".repeat(32))).hasValueSatisfying(w -> assertThat(w).contains("63 bytes"));
        assertThat(TargetTableNames.invalid("Tidemark_offsets")).hasValueSatisfying(w -> assertThat(w).contains("the sink's own"));
    }

    @Test
    void aSinkClaimsEachTargetTableForOneSourceTableAndNamesTheMappingThatPartsThem() {
        TargetTableClaims claims = new TargetTableClaims(TargetTableNames.DEFAULT);
        claims.claim(PUBLIC_ORDERS);
        claims.claim(PUBLIC_ORDERS);
        assertThatThrownBy(() -> claims.claim(SALES_ORDERS)).isInstanceOf(SinkException.class)
                .hasMessageStartingWith("table sales.orders: target table orders already receives public.orders;")
                .hasMessageContaining("offsets not advanced: add target.tables: {sales.orders: sales_orders}, then start the sink again");
    }

    @Test
    void aSinkGivenTheMappingClaimsBothTablesAndStillRefusesAThirdOnATakenName() {
        TargetTableClaims claims = new TargetTableClaims(new TargetTableNames(Map.of(SALES_ORDERS, "sales_orders"),
                TargetTableNames.Syntax.CONNECT));
        claims.claim(PUBLIC_ORDERS);
        claims.claim(SALES_ORDERS);
        assertThatThrownBy(() -> claims.claim(new TableId("sales", "Sales_Orders"))).isInstanceOf(SinkException.class)
                .hasMessageStartingWith("table sales.Sales_Orders: target table Sales_Orders already receives sales.orders;")
                .hasMessageContaining("set target.tables=sales.orders:sales_orders,sales.Sales_Orders:sales_Sales_Orders");
    }
}
