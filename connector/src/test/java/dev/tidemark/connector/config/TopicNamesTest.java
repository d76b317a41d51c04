package dev.tidemark.connector.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicNamesTest {
    @Test
    void validNamesStayAsTheyAre() {
        assertThat(TopicNames.of("shop", new TableId("public", "order_items"))).isEqualTo("shop.public.order_items");
        assertThat(TopicNames.of("shop", new TableId("", "items"))).isEqualTo("shop.items");
    }

    @Test
    void everyOtherCharacterIsEscapedByItsUtf8Bytes() {
        assertThat(TopicNames.of("shop", new TableId("public", "Order Items"))).isEqualTo("shop.public.Order-20Items");
        assertThat(TopicNames.escape("a.b")).isEqualTo("a-2Eb");
        assertThat(TopicNames.escape("my-table")).isEqualTo("my-2Dtable");
        assertThat(TopicNames.escape("Bestellpositionen_ä")).isEqualTo("Bestellpositionen_-C3-A4");
        assertThat(TopicNames.escape("😀")).isEqualTo("-F0-9F-98-80");
    }

    @Test
    void namesThatMetUnderTheOldRuleAreApart() {
        // public."a.b" and a."b" were both <prefix>.public.a.b ... a.b
        assertThat(TopicNames.of("p", new TableId("public", "a.b"))).isNotEqualTo(TopicNames.of("p", new TableId("public.a", "b")));
        assertThat(TopicNames.of("p", new TableId("public", "a.b"))).isEqualTo("p.public.a-2Eb");
        assertThat(TopicNames.of("p", new TableId("public.a", "b"))).isEqualTo("p.public-2Ea.b");
    }

    @Test
    void anExplicitTopicWins() {
        TableId sales = new TableId("sales", "orders");
        assertThat(TopicNames.of("p", sales, Map.of(sales, "sales-orders"))).isEqualTo("sales-orders");
        assertThat(TopicNames.of("p", new TableId("public", "orders"), Map.of(sales, "sales-orders"))).isEqualTo("p.public.orders");
    }

    @Test
    void invalidTopicNamesAreNamedWithTheirReason() {
        assertThat(TopicNames.invalid("ok.name_-1")).isEmpty();
        assertThat(TopicNames.invalid("Order Items")).contains("a topic name has only letters, digits, '.', '_' and '-'");
        assertThat(TopicNames.invalid("..")).isPresent();
        assertThat(TopicNames.invalid("x".repeat(250))).contains("a topic name has at most 249 characters, this one 250");
    }

    @Test
    void problemsNameTheTableItsTopicAndWhatToChange() {
        TableId orders = new TableId("public", "orders");
        assertThat(TopicNames.problems("my shop", List.of(orders), Map.of())).containsExactly("table public.orders: topic 'my shop.public.orders' "
                + "is not a valid Kafka topic name (a topic name has only letters, digits, '.', '_' and '-'); choose another "
                + "kafka.topicPrefix, or name its topic in kafka.topics");
        TableId a = new TableId("public", "order_items");
        TableId b = new TableId("public_order", "items");
        assertThat(TopicNames.problems("p", List.of(a, b), Map.of())).singleElement().asString()
                .startsWith("tables public.order_items and public_order.items would share topic 'p.public.order_items' "
                        + "(Kafka takes 'p.public_order.items' for the same name)");
        TableId sales = new TableId("sales", "orders");
        assertThat(TopicNames.problems("p", List.of(orders, sales), Map.of(sales, "p.public.orders"))).singleElement().asString()
                .isEqualTo("tables public.orders and sales.orders would share topic 'p.public.orders'; name one of them in kafka.topics");
    }

    @Test
    void theExplicitTopicsSurviveTheirPropertyEncoding() {
        TableId odd = new TableId("public", "Order Items");
        String encoded = TopicNames.encode(Map.of(odd, "order-items"));
        assertThat(TopicNames.decode(encoded)).containsExactly(Map.entry(TopicNames.key("public", "Order Items"), "order-items"));
        assertThat(TopicNames.decode("")).isEmpty();
    }
}
