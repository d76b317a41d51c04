package dev.tidemark.cli.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.cli.observability.Health.Half;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HealthTest {
    private static final Half RUNNING = new Half.Running();
    private static final Half ABSENT = new Half.Absent();

    private static Health decide(boolean loop, Half capture, Half sink, Optional<Boolean> kafka) {
        return Health.decide(new Health.Inputs(loop, capture, sink, kafka, kafka.orElse(true) ? "" : "no answer from k1:9092 within 3 s"));
    }

    @Test
    void readyWhenEveryChosenHalfRunsAndKafkaAnswers() {
        Health h = decide(true, RUNNING, RUNNING, Optional.of(true));
        assertThat(h).isEqualTo(new Health(true, true, "streaming"));
        assertThat(h.status()).isEqualTo("UP");
        assertThat(decide(true, ABSENT, RUNNING, Optional.empty()).ready()).as("sink command, Kafka not probed yet").isTrue();
    }

    @Test
    void notReadyWhileStartingNamingTheHalf() {
        Health h = decide(true, new Half.Starting("the connector task is starting"), RUNNING, Optional.of(true));
        assertThat(h.ready()).isFalse();
        assertThat(h.live()).isTrue();
        assertThat(h.status()).isEqualTo("DOWN");
        assertThat(h.reason()).isEqualTo("capture not streaming yet: the connector task is starting");
    }

    @Test
    void aFaultWinsOverEverythingElseAndKeepsItsOneLine() {
        Health h = decide(false, new Half.Starting("x"), new Half.Failed("table main.orders was dropped from the target"), Optional.of(false));
        assertThat(h).isEqualTo(new Health(false, false, "sink stopped: table main.orders was dropped from the target"));
        assertThat(decide(true, new Half.Failed("slot gone"), RUNNING, Optional.of(true)).reason()).isEqualTo("capture stopped: slot gone");
    }

    @Test
    void kafkaUnreachableThenDrainingThenStopped() {
        assertThat(decide(true, RUNNING, RUNNING, Optional.of(false)).reason())
                .isEqualTo("Kafka unreachable: no answer from k1:9092 within 3 s");
        assertThat(decide(false, RUNNING, RUNNING, Optional.of(true))).isEqualTo(new Health(false, false, "stopping: the pipeline is draining"));
        assertThat(decide(false, new Half.Stopped(), ABSENT, Optional.of(true)).reason()).isEqualTo("capture stopped");
    }

    @Test
    void readyButDegradedSaysWhyAndAFaultStillWins() {
        String drift = "scheduled reconcile found drift: public.orders 1 key(s) still different after the run of 2026-12-04T11:00:00Z";
        Health h = Health.decide(new Health.Inputs(true, RUNNING, RUNNING, Optional.of(true), "", Optional.of(drift)));
        assertThat(h).isEqualTo(new Health(true, true, true, drift));
        assertThat(h.status()).isEqualTo("DEGRADED");
        Health down = Health.decide(new Health.Inputs(true, RUNNING, new Half.Failed("slot gone"), Optional.of(true), "", Optional.of(drift)));
        assertThat(down.status()).isEqualTo("DOWN");
        assertThat(down.reason()).isEqualTo("sink stopped: slot gone");
    }
}
