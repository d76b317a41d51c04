package dev.tidemark.connector.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code target.tables} in the pipeline file. */
class TargetTablesSectionTest {
    static final TableId PUBLIC_ORDERS = new TableId("public", "orders");
    static final TableId SALES_ORDERS = new TableId("sales", "orders");

    private static PipelineConfig parse(String tables, String targetExtra) {
        return PipelineConfigParser.parse("name: p\nsource:\n  url: jdbc:postgresql://h/db\n  tables: " + tables + "\n"
                + "kafka:\n  bootstrapServers: k:9092\ntarget:\n  url: jdbc:sqlite:t.db\n" + targetExtra, "p.yaml", Path.of("."),
                Map.<String, String>of()::get);
    }

    private static List<String> problems(String tables, String targetExtra) {
        try {
            parse(tables, targetExtra);
        } catch (ConfigException e) {
            return e.problems();
        }
        throw new AssertionError("no problem reported");
    }

    @Test
    void anExplicitNameNamesTheTablesTargetTableAndTheOthersKeepTheirNameWithoutSchema() {
        PipelineConfig c = parse("[public.orders, sales.orders]", "  tables: {sales.orders: sales_orders}\n");
        assertThat(c.targetTableFor(SALES_ORDERS)).isEqualTo("sales_orders");
        assertThat(c.targetTableFor(PUBLIC_ORDERS)).isEqualTo("orders");
        assertThat(parse("[public.orders]", "").targetTableFor(PUBLIC_ORDERS)).isEqualTo("orders");
    }

    @Test
    void tablesOfOneNameWithoutEntriesAreRefusedOnSourceTablesNamingTheMappingThatPartsThem() {
        assertThat(problems("[public.orders, public.customers, sales.orders, sales.items, public.items]", "")).containsExactly(
                "Invalid value [public.orders, public.customers, sales.orders, sales.items, public.items] for configuration source.tables: "
                        + "public.orders and sales.orders would all be written to target table orders and their rows would merge, "
                        + "sales.items and public.items would all be written to target table items and their rows would merge; "
                        + "add target.tables: {sales.orders: sales_orders, public.items: public_items}");
    }

    @Test
    void theAdvisedMappingParsesAndPartsThem() {
        String tables = "[public.orders, sales.orders, sales.items, public.items]";
        String line = problems(tables, "").get(0);
        String mapping = line.substring(line.indexOf("add target.tables: ") + "add target.tables: ".length());
        PipelineConfig c = parse(tables, "  tables: " + mapping + "\n");
        assertThat(c.source().tables().stream().map(c::targetTableFor).toList())
                .containsExactly("orders", "sales_orders", "items", "public_items");
    }

    @Test
    void theAdvisedMappingOfNamesYamlMustQuoteParsesAsPrinted() {
        String tables = "['public.Order Items', 'sales.Order Items', 'public.it''s', 'hr.it''s', 'public.a: b', 'x.a: b']";
        String line = problems(tables, "").get(0);
        String mapping = line.substring(line.indexOf("add target.tables: ") + "add target.tables: ".length());
        assertThat(mapping).isEqualTo("{sales.Order Items: sales_Order Items, 'hr.it''s': 'hr_it''s', 'x.a: b': 'x_a: b'}");
        PipelineConfig c = parse(tables, "  tables: " + mapping + "\n");
        assertThat(c.source().tables().stream().map(c::targetTableFor).toList())
                .containsExactly("Order Items", "sales_Order Items", "it's", "hr_it's", "a: b", "x_a: b");
    }

    @Test
    void everyBadEntryIsReportedTogetherNamingItsKey() {
        assertThat(problems("[public.orders, sales.orders, public.customers]",
                "  tables: {public.nosuch: x, sales.orders: '', public.customers: 'a.b', public.orders: tidemark_offsets}\n"))
                .containsExactly(
                        "Invalid value x for configuration target.tables.public.nosuch: public.nosuch is not in source.tables "
                                + "[public.orders, sales.orders, public.customers]",
                        "Invalid value  for configuration target.tables.sales.orders: a target table name cannot be empty",
                        "Invalid value a.b for configuration target.tables.public.customers: a target table name has no schema and no '.' "
                                + "(the target's schema is the one its connection uses)",
                        "Invalid value tidemark_offsets for configuration target.tables.public.orders: names beginning with tidemark_ "
                                + "are the sink's own tables");
    }

    @Test
    void anExplicitNameAnotherTableHasTooIsRefusedOnItsEntryRegardlessOfCase() {
        assertThat(problems("[public.orders, sales.orders, hr.staff]", "  tables: {sales.orders: Orders, hr.staff: people, public.orders: PEOPLE}\n"))
                .containsExactly("Invalid value people for configuration target.tables.hr.staff: public.orders and hr.staff would all "
                        + "be written to target table PEOPLE and their rows would merge; name another target table for hr.staff, "
                        + "such as hr_staff");
        assertThat(problems("[public.orders, sales.orders]", "  tables: {sales.orders: Orders}\n"))
                .containsExactly("Invalid value Orders for configuration target.tables.sales.orders: public.orders and sales.orders "
                        + "would all be written to target table orders and their rows would merge; name another target table for "
                        + "sales.orders, such as sales_orders");
    }

    @Test
    void aTargetTablesValueThatIsNoMappingIsReported() {
        assertThat(problems("[public.orders]", "  tables: [a, b]\n")).containsExactly(
                "Invalid value [\"a\",\"b\"] for configuration target.tables: expected a mapping of schema.table: name, such as "
                        + "{sales.orders: sales_orders}");
        assertThat(problems("[public.orders]", "  tables: {public.orders: {a: b}}\n")).containsExactly(
                "Invalid value {\"a\":\"b\"} for configuration target.tables.public.orders: expected a single name");
    }
}
