package dev.tidemark.sink.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.SinkException;
import dev.tidemark.sink.kafka.PoisonIsolator.Apply;
import dev.tidemark.sink.kafka.PoisonIsolator.Isolate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The bisecting isolation of poison records, without Kafka: the pure plan, then a run against a fake target. */
class PoisonIsolatorTest {

    @Test
    void aBatchWithoutUndecodableRecordsIsFirstAppliedWhole() {
        assertThat(PoisonIsolator.initial(5, i -> false)).containsExactly(new Apply(0, 5));
        assertThat(PoisonIsolator.initial(0, i -> false)).isEmpty();
    }

    @Test
    void undecodableRecordsAreIsolatedAtOnceAndTheRunsBetweenThemApplied() {
        assertThat(PoisonIsolator.initial(6, i -> i == 2 || i == 3 || i == 5))
                .containsExactly(new Apply(0, 2), new Isolate(2), new Isolate(3), new Apply(4, 5), new Isolate(5));
        assertThat(PoisonIsolator.initial(1, i -> true)).containsExactly(new Isolate(0));
    }

    @Test
    void aRejectedPartIsHalvedUntilOneRecordRemains() {
        assertThat(PoisonIsolator.afterRejection(new Apply(0, 8))).containsExactly(new Apply(0, 4), new Apply(4, 8));
        assertThat(PoisonIsolator.afterRejection(new Apply(4, 7))).containsExactly(new Apply(4, 5), new Apply(5, 7));
        assertThat(PoisonIsolator.afterRejection(new Apply(5, 6))).containsExactly(new Isolate(5));
    }

    /** Applies parts, rejecting any part that holds one of {@code poison}; records what happened, in order. */
    private static class FakeTarget implements PoisonIsolator.Target<Integer> {
        final Set<Integer> poison;
        final Set<Integer> broken;
        final List<String> log = new ArrayList<>();
        final List<Integer> committed = new ArrayList<>();

        FakeTarget(Set<Integer> poison, Set<Integer> broken) {
            this.poison = poison;
            this.broken = broken;
        }

        @Override
        public void apply(List<Integer> part) {
            String range = part.get(0) + "-" + part.get(part.size() - 1);
            if (part.stream().anyMatch(broken::contains)) {
                log.add("fault " + range);
                throw new SinkException("permission denied", null, new Failure.Fault(Failure.Cause.PRIVILEGE));
            }
            if (part.stream().anyMatch(poison::contains)) {
                log.add("rejected " + range);
                throw new SinkException("check constraint", null, new Failure.RowRejected());
            }
            log.add("applied " + range);
            committed.addAll(part);
        }

        @Override
        public void isolate(Integer record, RuntimeException reason) {
            log.add("isolated " + record + ": " + reason.getMessage());
        }
    }

    private static List<Integer> batch(int n) {
        return IntStream.range(0, n).boxed().toList();
    }

    @Test
    void appliesEverythingAroundARejectedRecordInOrder() {
        FakeTarget target = new FakeTarget(Set.of(5), Set.of());
        new PoisonIsolator<Integer>(r -> null).apply(batch(8), target);
        assertThat(target.log).containsExactly("rejected 0-7", "applied 0-3", "rejected 4-7", "rejected 4-5", "applied 4-4",
                "rejected 5-5", "isolated 5: check constraint", "applied 6-7");
        assertThat(target.committed).containsExactly(0, 1, 2, 3, 4, 6, 7);
    }

    @Test
    void isolatesUndecodableRecordsWithTheirOwnReasonWithoutApplyingThem() {
        FakeTarget target = new FakeTarget(Set.of(), Set.of());
        new PoisonIsolator<Integer>(r -> r == 1 ? new IllegalStateException("not JSON") : null).apply(batch(4), target);
        assertThat(target.log).containsExactly("applied 0-0", "isolated 1: not JSON", "applied 2-3");
    }

    @Test
    void aStopWhileIsolatingEndsTheBatchThere() {
        FakeTarget target = new FakeTarget(Set.of(1), Set.of()) {
            @Override
            public void isolate(Integer record, RuntimeException reason) {
                super.isolate(record, reason);
                throw new IllegalStateException("stop at " + record);
            }
        };
        assertThatThrownBy(() -> new PoisonIsolator<Integer>(r -> null).apply(batch(4), target)).hasMessage("stop at 1");
        assertThat(target.committed).containsExactly(0);
    }

    @Test
    void aFaultOfTheTargetStopsAtOnceWithoutIsolatingAnything() {
        FakeTarget target = new FakeTarget(Set.of(1), Set.of(6));
        assertThatThrownBy(() -> new PoisonIsolator<Integer>(r -> null).apply(batch(8), target))
                .isInstanceOfSatisfying(SinkException.class, e -> assertThat(e.isRowRejected()).isFalse());
        assertThat(target.log).containsExactly("fault 0-7");
        assertThat(target.committed).isEmpty();
    }

    @Test
    void twoPoisonRecordsAreEachIsolated() {
        FakeTarget target = new FakeTarget(Set.of(0, 3), Set.of());
        new PoisonIsolator<Integer>(r -> null).apply(batch(4), target);
        assertThat(target.log).filteredOn(l -> l.startsWith("isolated")).containsExactly("isolated 0: check constraint",
                "isolated 3: check constraint");
        assertThat(target.committed).containsExactly(1, 2);
    }
}
