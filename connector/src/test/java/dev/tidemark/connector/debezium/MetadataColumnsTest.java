package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MetadataColumnsTest {
    private static final TableId ORDERS = new TableId("public", "orders");
    private static final List<String> TARGET_COLUMNS = List.of("id", "note", "__tidemark_position", "__tidemark_deleted");

    @Test
    void aTidemarkTargetsMetadataColumnsAreLeftOut() {
        assertThat(MetadataColumns.decide(ORDERS, TARGET_COLUMNS, Set.of("id", "note"), Set.of(), "__tidemark_position", false))
                .isEqualTo(new MetadataColumns.Decision.Exclude(List.of("__tidemark_position", "__tidemark_deleted")));
    }

    @Test
    void aColumnTidemarkColumnsRecordsAsDataIsKept() {
        assertThat(MetadataColumns.decide(ORDERS, TARGET_COLUMNS, Set.of("id", "note", "__tidemark_deleted"), Set.of(),
                "__tidemark_position", false)).isEqualTo(new MetadataColumns.Decision.Exclude(List.of("__tidemark_position")));
    }

    @Test
    void aTidemarkTargetWithoutMetadataColumnsIsCapturedAsItIs() {
        assertThat(MetadataColumns.decide(ORDERS, List.of("id", "note"), Set.of("id", "note"), Set.of(), "__tidemark_position", false))
                .isEqualTo(new MetadataColumns.Decision.Keep());
    }

    @Test
    void aPlainTableWithTheSinksColumnNameIsRefusedNamingBothWaysOut() {
        MetadataColumns.Decision d = MetadataColumns.decide(ORDERS, List.of("id", "__tidemark_position"), Set.of(), Set.of(),
                "__tidemark_position", false);
        assertThat(d).isInstanceOf(MetadataColumns.Decision.Refuse.class);
        assertThat(((MetadataColumns.Decision.Refuse) d).problem())
                .startsWith("table public.orders has a column \"__tidemark_position\"")
                .contains("no public.tidemark_columns lists it", "source.excludeColumns: [public.orders.__tidemark_position]",
                        "target.positionColumn");
    }

    @Test
    void aPlainTableKeepsEveryColumnWhenNoneClashes() {
        assertThat(MetadataColumns.decide(ORDERS, List.of("id", "__tidemark_position"), Set.of(), Set.of(), "pos", false))
                .isEqualTo(new MetadataColumns.Decision.Keep());
        assertThat(MetadataColumns.decide(ORDERS, List.of("id", "__tidemark_deleted"), Set.of(), Set.of(), "__tidemark_position", false))
                .as("__tidemark_deleted clashes only with soft deletes").isEqualTo(new MetadataColumns.Decision.Keep());
        assertThat(MetadataColumns.decide(ORDERS, List.of("id", "__tidemark_deleted"), Set.of(), Set.of(), "__tidemark_position", true))
                .isInstanceOf(MetadataColumns.Decision.Refuse.class);
    }

    @Test
    void anExcludedClashIsNoClash() {
        assertThat(MetadataColumns.decide(ORDERS, List.of("id", "__tidemark_position"), Set.of(), Set.of("__tidemark_position"),
                "__tidemark_position", false)).isEqualTo(new MetadataColumns.Decision.Keep());
    }
}
