package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class SnapshotSignalIdTest {
    @Test
    void theIdOfARequestCarriesTheWalPositionItWasMadeAt() {
        assertThat(SnapshotSignals.requestLsn("tidemark-00000016B374D848-5f0c1c5e-2b7e-4d7e-9a55-0c6a1f2b3c4d"))
                .isEqualTo(OptionalLong.of(Lsn.parse("16/B374D848").value()));
    }

    @Test
    void otherIdsCarryNoPosition() {
        assertThat(SnapshotSignals.requestLsn("tidemark-5f0c1c5e-2b7e-4d7e-9a55-0c6a1f2b3c4d")).isEmpty();
        assertThat(SnapshotSignals.requestLsn("ad-hoc-1")).isEmpty();
        assertThat(SnapshotSignals.requestLsn("tidemark-ZZZZZZZZZZZZZZZZ-x")).isEmpty();
    }
}
