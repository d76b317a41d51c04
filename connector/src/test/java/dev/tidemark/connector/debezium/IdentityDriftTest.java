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
    void anyOtherIdentityStopsNamingTheWayOn() {
        assertThat(IdentityDrift.stop(T, 'd', true, "p.yaml")).hasValue("capture stopped: table public.accounts has REPLICA "
                + "IDENTITY DEFAULT instead of FULL while capture runs, so an update of its primary key can lose unchanged TOASTed "
                + "values in the target: start capture again (it sets REPLICA IDENTITY FULL back), then run `tidemark reconcile "
                + "--config p.yaml --repair --apply`");
        assertThat(IdentityDrift.stop(T, 'i', false, null).orElseThrow()).contains("REPLICA IDENTITY USING INDEX instead of FULL")
                .contains("run ALTER TABLE \"public\".\"accounts\" REPLICA IDENTITY FULL, start capture again, then run "
                        + "`tidemark reconcile --config FILE --repair --apply`");
        assertThat(IdentityDrift.stop(T, 'n', true, "p.yaml").orElseThrow()).contains("REPLICA IDENTITY NOTHING instead of FULL");
    }
}
