package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class PositionMarkerTest {
    @Test
    void aFailureWithoutMessageIsDescribedByItsSqlState() {
        assertThat(PositionMarker.problem(new SQLException(null, "08006"))).isEqualTo("no reason given (SQL state 08006)");
    }

    @Test
    void aFailureWithAMessageIsItsMessage() {
        assertThat(PositionMarker.problem(new SQLException("slot is busy", "55006"))).isEqualTo("slot is busy");
    }
}
