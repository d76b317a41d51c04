package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.UsageException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the source's preflight refusal is: the request must change (exit 2), and a view is called a view. */
class SourcePreflightRefusalTest {
    @Test
    void aSourceNotReadyForCdcIsABadRequest() {
        assertThat(SourcePreflight.notReady("h:5432/db", List.of("wal_level must be 'logical' but is: 'replica'",
                "table public.nopk has no primary key")))
                .isInstanceOf(UsageException.class)
                .hasMessage("source h:5432/db is not ready for CDC (nothing was changed):\n  wal_level must be 'logical' but is: 'replica'"
                        + "\n  table public.nopk has no primary key");
    }

    @Test
    void aViewIsAViewAndATableIsNoProblem() {
        TableId v = new TableId("public", "orders_view");
        assertThat(SourcePreflight.notATable(v, "v")).contains("public.orders_view is a view: logical replication captures tables only "
                + "(capture its tables instead)");
        assertThat(SourcePreflight.notATable(v, "m")).get().asString().startsWith("public.orders_view is a materialized view");
        assertThat(SourcePreflight.notATable(v, "r")).isEmpty();
        assertThat(SourcePreflight.notATable(v, "p")).isEmpty();
    }
}
