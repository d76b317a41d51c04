package dev.tidemark.cli.observability;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PartitionLagTest {
    private static final long NOW = 1_000_000;

    @Test
    void caughtUpIsZeroRecordsAndZeroSeconds() {
        assertThat(PartitionLag.of(50, 50, 50, NOW - 90_000, NOW)).isEqualTo(new PartitionLag(0, 0));
    }

    @Test
    void behindIsTheRecordsLeftAndTheAgeOfTheLastAppliedRecord() {
        assertThat(PartitionLag.of(80, 80, 50, NOW - 2_500, NOW)).isEqualTo(new PartitionLag(30, 2.5));
    }

    @Test
    void beforeTheFirstApplyThePositionStandsInAndSecondsAreUnknown() {
        PartitionLag lag = PartitionLag.of(80, 70, -1, -1, NOW);
        assertThat(lag.records()).isEqualTo(10);
        assertThat(lag.seconds()).isNaN();
        assertThat(PartitionLag.of(70, 70, -1, -1, NOW)).isEqualTo(new PartitionLag(0, 0));
    }

    @Test
    void unknownEndIsUnknownAndAClockBehindTheBrokerIsNoNegativeLag() {
        assertThat(PartitionLag.of(-1, 5, 5, NOW, NOW).records()).isNaN();
        assertThat(PartitionLag.of(9, 5, 5, NOW + 4_000, NOW)).isEqualTo(new PartitionLag(4, 0));
    }
}
