package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.debezium.EngineStopPlan.Met;
import dev.tidemark.connector.debezium.EngineStopPlan.Observed;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class EngineStopPlanTest {
    private static final EngineStopPlan.Policy P = new EngineStopPlan.Policy(Duration.ofMillis(200), Duration.ofSeconds(120),
            Duration.ofSeconds(2), Duration.ofSeconds(10));

    private static EngineStopPlan.Step next(Met met, boolean reported, boolean interrupted, long sinceFirstMs, long sinceStoppedMs) {
        return EngineStopPlan.next(new Observed(met, reported, interrupted, Duration.ofMillis(sinceFirstMs), Duration.ofMillis(sinceStoppedMs)), P);
    }

    @Test
    void debeziumsRefusalsAreReadFromTheirMessages() {
        assertThat(Met.refusal("Cannot stop engine while tasks are starting, this may lead to leaked resource. Wait for the tasks to be fully started."))
                .isEqualTo(Met.STARTING_TASKS);
        assertThat(Met.refusal("Cannot change engine state to 'STOPPING' as the engine is not in expected state 'CREATING_TASKS', "
                + "current engine state is 'STARTING_TASKS'")).isEqualTo(Met.STATE_MOVED);
        assertThat(Met.refusal("Engine is already being shutting down.")).isEqualTo(Met.ALREADY_STOPPING);
        assertThat(Met.refusal("Engine has been already shut down.")).isEqualTo(Met.ALREADY_STOPPED);
        assertThat(Met.refusal("something else")).isEqualTo(Met.OTHER_REFUSAL);
        assertThat(Met.refusal(null)).isEqualTo(Met.OTHER_REFUSAL);
    }

    @Test
    void anEngineThatReportedItsEndIsDoneWhateverTheLastCloseMet() {
        for (Met met : Met.values()) {
            assertThat(next(met, true, false, 500_000, 500_000)).as(met.name()).isEqualTo(new EngineStopPlan.Done());
        }
    }

    @Test
    void aCloseRefusedWhileTasksStartOrRacingAStateChangeIsTriedAgainWithinThePatience() {
        assertThat(next(Met.STARTING_TASKS, false, false, 0, 0)).isEqualTo(new EngineStopPlan.CloseAgain(Duration.ofMillis(200)));
        assertThat(next(Met.STATE_MOVED, false, false, 119_999, 0)).isEqualTo(new EngineStopPlan.CloseAgain(Duration.ofMillis(200)));
        assertThat(next(Met.STARTING_TASKS, false, false, 120_000, 0)).isInstanceOf(EngineStopPlan.GiveUp.class)
                .hasToString("GiveUp[why=Debezium's engine was still starting its tasks after 120 s]");
    }

    @Test
    void aTakenCloseIsFollowedByTheEndReportAndAfterTheGraceByAnInterruptOfTheEngineThread() {
        assertThat(next(Met.TOOK_CLOSE, false, false, 0, 0)).isEqualTo(new EngineStopPlan.AwaitReport(Duration.ofSeconds(2)));
        assertThat(next(Met.TOOK_CLOSE, false, false, 1_500, 1_500)).isEqualTo(new EngineStopPlan.AwaitReport(Duration.ofMillis(500)));
        assertThat(next(Met.TOOK_CLOSE, false, false, 2_000, 2_000)).isEqualTo(new EngineStopPlan.InterruptEngineThread());
        assertThat(next(Met.TOOK_CLOSE, false, true, 2_000, 2_000)).isEqualTo(new EngineStopPlan.AwaitReport(Duration.ofSeconds(10)));
        assertThat(next(Met.TOOK_CLOSE, false, true, 12_000, 12_000)).isInstanceOf(EngineStopPlan.GiveUp.class);
    }

    @Test
    void anEngineStoppingByItselfIsAwaitedNeverInterrupted() {
        for (Met met : new Met[] {Met.ALREADY_STOPPING, Met.ALREADY_STOPPED}) {
            assertThat(next(met, false, false, 0, 0)).as(met.name()).isEqualTo(new EngineStopPlan.AwaitReport(Duration.ofSeconds(12)));
            assertThat(next(met, false, false, 5_000, 5_000)).as(met.name()).isEqualTo(new EngineStopPlan.AwaitReport(Duration.ofSeconds(7)));
            assertThat(next(met, false, false, 12_000, 12_000)).as(met.name()).isInstanceOf(EngineStopPlan.GiveUp.class);
        }
    }

    @Test
    void anUnknownRefusalIsGivenUpAtOnce() {
        assertThat(next(Met.OTHER_REFUSAL, false, false, 0, 0)).isEqualTo(new EngineStopPlan.GiveUp("Debezium's engine refused to stop"));
    }
}
