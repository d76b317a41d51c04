package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import org.junit.jupiter.api.Test;

class IdentityDriftTest {
    static final TableId T = new TableId("public", "accounts");

    @Test
    void fullNeedsNothing() {
        assertThat(IdentityDrift.stop(T, 'f', true, "p.yaml")).isEmpty();
    }

    @Test
    void anyOtherIdentityStopsNamingTheTablesSnapshotAsTheWayOn() {
        assertThat(IdentityDrift.stop(T, 'd', true, "p.yaml")).hasValue("capture stopped: table public.accounts has REPLICA "
                + "IDENTITY DEFAULT instead of FULL while capture runs, so an update of its primary key can lose unchanged TOASTed "
                + "values in the target: copy the table again with `tidemark snapshot --config p.yaml --table public.accounts` "
                + "(taken at the next start of capture, which sets REPLICA IDENTITY FULL back; the snapshot rewrites the table's "
                + "rows and removes the target rows the source no longer holds)");
        assertThat(IdentityDrift.stop(T, 'i', false, null).orElseThrow()).contains("REPLICA IDENTITY USING INDEX instead of FULL")
                .contains("run ALTER TABLE \"public\".\"accounts\" REPLICA IDENTITY FULL, then copy the table again with "
                        + "`tidemark snapshot --config FILE --table public.accounts` (taken at the next start of capture;")
                .doesNotContain("reconcile");
        assertThat(IdentityDrift.stop(T, 'n', true, "p.yaml").orElseThrow()).contains("REPLICA IDENTITY NOTHING instead of FULL");
    }
}
