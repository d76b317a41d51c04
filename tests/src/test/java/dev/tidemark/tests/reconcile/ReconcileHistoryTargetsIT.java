package dev.tidemark.tests.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.Dialect;
import dev.tidemark.reconcile.ReconcileHistory;
import dev.tidemark.reconcile.ReconcileLease;
import dev.tidemark.tests.sink.TargetDatabase;
import java.sql.Connection;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scheduled reconcile's tables on every target engine (the machine's PostgreSQL and MariaDB, and SQLite): the
 * history and the lease are created, written and read back through the engine's own dialect.
 */
class ReconcileHistoryTargetsIT {
    static final Instant T = Instant.parse("2026-05-01T10:00:00.123456Z");

    static Stream<String> engines() {
        return Stream.of("sqlite", "postgresql", "mariadb");
    }

    static TargetDatabase open(String engine) throws Exception {
        return switch (engine) {
            case "postgresql" -> TargetDatabase.postgres();
            case "mariadb" -> TargetDatabase.mariadb();
            default -> TargetDatabase.sqlite();
        };
    }

    @ParameterizedTest
    @MethodSource("engines")
    void historyAndLeaseOnEachEngine(String engine) throws Exception {
        try (TargetDatabase db = open(engine); Connection c = db.connect()) {
            Dialect d = Databases.targetForUrl(db.jdbcUrl());
            c.setAutoCommit(true);
            ReconcileHistory.Row first = new ReconcileHistory.Row("shop", "public.items", T, T.plusSeconds(2), 40, 41, 0, 1, 2, 3, 0, 2000,
                    ReconcileHistory.Outcome.REPAIRED, "");
            ReconcileHistory.Row second = new ReconcileHistory.Row("shop", "public.items", T.plusSeconds(60), T.plusSeconds(61), 40, 40, 0, 0,
                    0, 0, 0, 1000, ReconcileHistory.Outcome.EQUAL, "");
            ReconcileHistory.ensure(c, d);
            ReconcileHistory.ensure(c, d);
            ReconcileHistory.record(c, d, first);
            ReconcileHistory.record(c, d, second);
            assertThat(ReconcileHistory.recent(c, d, "shop")).containsExactly(second, first);
            ReconcileHistory.Summary s = ReconcileHistory.summarize(ReconcileHistory.recent(c, d, "shop"));
            assertThat(s.lastDrift().get("public.items")).isEqualTo(first);
            assertThat(s.lastSuccess()).contains(T.plusSeconds(61));

            assertThat(ReconcileLease.take(c, d, "a", T, T.plusSeconds(60))).isEmpty();
            assertThat(ReconcileLease.take(c, d, "b", T.plusSeconds(1), T.plusSeconds(61)))
                    .contains("a until " + Instant.ofEpochMilli(T.plusSeconds(60).toEpochMilli()));
            ReconcileLease.release(c, d, "a");
            assertThat(ReconcileLease.take(c, d, "b", T.plusSeconds(2), T.plusSeconds(62))).isEmpty();
        }
    }
}
