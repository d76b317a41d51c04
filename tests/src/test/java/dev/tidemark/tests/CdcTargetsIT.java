package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.reconcile.ComparisonResult;
import dev.tidemark.testkit.TableComparison;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.kafka.ReplayFrom;
import dev.tidemark.tests.sink.TargetDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole CDC path into each target database: exact types, then a source schema change (a column added while
 * the pipeline runs) that the sink follows by adding the column, with key+checksum equality at every step.
 */
class CdcTargetsIT {
    static final TableId T = new TableId("public", "ledger");

    @TempDir
    Path dir;

    static Stream<Arguments> targets() {
        return Stream.of(Arguments.of("sqlite", (Supplier<TargetDatabase>) () -> {
                    try {
                        return TargetDatabase.sqlite();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }),
                Arguments.of("postgresql", (Supplier<TargetDatabase>) TargetDatabase::postgres),
                Arguments.of("mariadb", (Supplier<TargetDatabase>) TargetDatabase::mariadb));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void changesAndASchemaChangeReachTheTarget(String name, Supplier<TargetDatabase> targets) throws Exception {
        try (TargetDatabase target = targets.get(); CdcFixture f = new CdcFixture("targets_" + name, dir, List.of(T))) {
            f.sql("CREATE TABLE public.ledger (id bigint PRIMARY KEY, amount numeric(20,6), booked timestamptz(6), "
                            + "local_ts timestamp(6), day date, memo text, ok boolean, raw bytea)",
                    "INSERT INTO ledger SELECT g, g * 1.000001, '2026-01-01 00:00:00.000001+05:30'::timestamptz + g * interval '1 second', "
                            + "'2026-01-01 00:00:00.123456'::timestamp + g * interval '1 minute', date '2026-01-01' + g, "
                            + "'memo ' || g || ' — ünïcode ''q''', g % 2 = 0, decode('00ff', 'hex') FROM generate_series(1, 200) g",
                    "INSERT INTO ledger (id) VALUES (1000)");
            Sidecar sidecar = f.start(f.configFor(f.name, target.jdbcUrl(), target.properties().getProperty("user")), true, true,
                    new ReplayFrom.Stored());
            awaitEqual(f, target, sidecar);

            f.sql("UPDATE ledger SET amount = -amount, memo = NULL WHERE id % 7 = 0", "DELETE FROM ledger WHERE id % 11 = 0",
                    "ALTER TABLE ledger ADD COLUMN region text",
                    "INSERT INTO ledger (id, amount, region) VALUES (2000, 0.000001, 'eu-west')",
                    "UPDATE ledger SET region = 'us' WHERE id BETWEEN 1 AND 20");
            ComparisonResult r = awaitEqual(f, target, sidecar);
            assertThat(r.sourceRows()).isEqualTo(200 - 18 + 2);
        }
    }

    private static ComparisonResult awaitEqual(CdcFixture f, TargetDatabase target, Sidecar sidecar) {
        AtomicReference<ComparisonResult> last = new AtomicReference<>();
        await("target " + target.name() + " equal to the source by key and checksum").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .failFast("pipeline failed", () -> sidecar.failure().isPresent())
                .until(() -> {
                    try (Connection t = target.connect()) {
                        last.set(TableComparison.compare(f.source, T, List.of("id"), t, "ledger", target.quotes()));
                        return last.get().equal();
                    } catch (Exception e) {
                        return false; // the target table or its new column is not there yet
                    }
                });
        return last.get();
    }
}
