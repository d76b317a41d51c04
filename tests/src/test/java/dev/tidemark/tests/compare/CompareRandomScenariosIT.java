package dev.tidemark.tests.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.compare.CauseAttribution;
import dev.tidemark.compare.CompareResult;
import dev.tidemark.compare.Difference;
import dev.tidemark.compare.RandomScenario;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The property behind compare, over many seeds of the random scenario (inserts, cursor-stamping and non-stamping
 * updates, deletes, backdated rows, rows at the watermark, long transactions committed after a run): the CDC target
 * always equals the source, and every difference in the watermark target is attributed to a cause — exactly the
 * differences the steps' intents predict, none unexplained. Seeds 1 … {@code tidemark.compare.seeds} (default 30),
 * all on the shared PostgreSQL and Kafka, one CDC pipeline per seed.
 */
class CompareRandomScenariosIT {
    @TempDir
    Path dir;

    static Stream<Long> seeds() {
        return LongStream.rangeClosed(1, Long.getLong("tidemark.compare.seeds", 30)).boxed();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void cdcEqualsTheSource_everyWatermarkDifferenceHasItsPredictedCause(long seed) throws Exception {
        RandomScenario scenario = new RandomScenario(seed);
        CompareResult r = CompareFixture.run(scenario, dir, "cmp_rnd_" + seed);

        assertThat(r.cdc().differences()).as("CDC target vs source, seed %d", seed).isEmpty();
        assertThat(r.cdc().targetRows()).isEqualTo(r.cdc().sourceRows());
        assertThat(r.warnings()).as("CDC caught up after every period").noneMatch(w -> w.startsWith("the CDC target did not"));
        assertThat(r.unexplained()).as("unexplained differences, seed %d", seed).isEmpty();

        Map<String, String> observed = r.watermark().differences().stream()
                .collect(Collectors.toMap(Difference::key, d -> d.kind().label() + ": " + d.cause().label(), (a, b) -> a, TreeMap::new));
        Map<String, String> predicted = new CauseAttribution(scenario).expected().values().stream()
                .collect(Collectors.toMap(Difference::key, d -> d.kind().label() + ": " + d.cause().label(), (a, b) -> a, TreeMap::new));
        assertThat(observed).as("watermark differences, seed %d (%s)", seed, scenario.describe()).isEqualTo(predicted);
        assertThat(r.runs()).hasSize(scenario.runs());
    }
}
