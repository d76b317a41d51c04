package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IdentityAtStartTest {
    private static final TableId T = new TableId("public", "t");

    @Test
    void aTableCapturedBeforeThatLostFullIdentityStopsTheStartWithTheSnapshotLine() {
        assertThat(IdentityAtStart.stop(Map.of(T, "d"), Map.of(T, 10L), Map.of(T, 10L), t -> false, true, "p.yaml")).get().asString()
                .startsWith("capture stopped: table public.t has REPLICA IDENTITY DEFAULT instead of FULL")
                .contains("`tidemark snapshot --config p.yaml --table public.t`");
        assertThat(IdentityAtStart.stop(Map.of(T, "n"), Map.of(T, 10L), Map.of(T, 10L), t -> false, true, "p.yaml")).get().asString()
                .contains("REPLICA IDENTITY NOTHING");
    }

    @Test
    void aSnapshotRequestedAfterTheStoredPositionLetsTheStartGoOn() {
        assertThat(IdentityAtStart.stop(Map.of(T, "d"), Map.of(T, 10L), Map.of(T, 10L), t -> true, true, "p.yaml")).isEmpty();
    }

    @Test
    void fullNewAndRecreatedTablesAreNotJudged() {
        assertThat(IdentityAtStart.stop(Map.of(T, "f"), Map.of(T, 10L), Map.of(T, 10L), t -> false, true, null)).isEmpty();
        assertThat(IdentityAtStart.stop(Map.of(T, "d"), Map.of(), Map.of(T, 10L), t -> false, true, null)).as("new").isEmpty();
        assertThat(IdentityAtStart.stop(Map.of(T, "d"), Map.of(T, 10L), Map.of(T, 11L), t -> false, true, null)).as("re-created").isEmpty();
    }
}
