package dev.tidemark.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.jdbc.Databases;
import dev.tidemark.jdbc.Dialect;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReconcileHistoryTest {
    static final Instant T = Instant.parse("2026-05-01T10:00:00Z");

    @TempDir
    Path dir;

    static ReconcileHistory.Row row(String table, Instant run, long remaining, ReconcileHistory.Outcome outcome, String detail) {
        return new ReconcileHistory.Row("shop", table, run, run.plusSeconds(2), 40, 40, 0, 0, remaining, 0, remaining, 2000, outcome, detail);
    }

    @Test
    void rowsAreKeptInTheTargetAndReadBackNewestFirst() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("t.db");
        Dialect d = Databases.targetForUrl(url);
        try (Connection c = DriverManager.getConnection(url)) {
            ReconcileHistory.ensure(c, d);
            ReconcileHistory.ensure(c, d);
            ReconcileHistory.record(c, d, row("public.items", T, 1, ReconcileHistory.Outcome.DIFFERENT, ""));
            ReconcileHistory.record(c, d, row("public.items", T.plusSeconds(60), 0, ReconcileHistory.Outcome.REPAIRED, ""));
            ReconcileHistory.record(c, d, row("public.orders", T.plusSeconds(60), -1, ReconcileHistory.Outcome.FAILED, "no such table: orders"));
            List<ReconcileHistory.Row> rows = ReconcileHistory.recent(c, d, "shop");
            assertThat(rows).containsExactly(row("public.items", T.plusSeconds(60), 0, ReconcileHistory.Outcome.REPAIRED, ""),
                    row("public.orders", T.plusSeconds(60), -1, ReconcileHistory.Outcome.FAILED, "no such table: orders"),
                    row("public.items", T, 1, ReconcileHistory.Outcome.DIFFERENT, ""));
            assertThat(ReconcileHistory.recent(c, d, "other")).isEmpty();
        }
    }

    @Test
    void theSummaryHasEachTablesNewestRowAndTheEndOfTheNewestCompleteRun() {
        List<ReconcileHistory.Row> newestFirst = List.of(
                row("public.items", T.plusSeconds(120), 0, ReconcileHistory.Outcome.EQUAL, ""),
                row("public.orders", T.plusSeconds(120), -1, ReconcileHistory.Outcome.NOT_STARTED, "budget spent"),
                row("public.items", T.plusSeconds(60), 3, ReconcileHistory.Outcome.DIFFERENT, ""),
                row("public.orders", T.plusSeconds(60), 0, ReconcileHistory.Outcome.EQUAL, ""));
        ReconcileHistory.Summary s = ReconcileHistory.summarize(newestFirst);
        assertThat(s.latest()).containsOnlyKeys("public.items", "public.orders");
        assertThat(s.latest().get("public.items").remaining()).isZero();
        assertThat(s.latest().get("public.orders").outcome()).isEqualTo(ReconcileHistory.Outcome.NOT_STARTED);
        assertThat(s.lastDrift()).containsOnlyKeys("public.items");
        assertThat(s.lastDrift().get("public.items").runStartedAt()).isEqualTo(T.plusSeconds(60));
        assertThat(s.lastSuccess()).as("the newest run left a table out; the one before compared all, different or not")
                .contains(T.plusSeconds(62));
        assertThat(ReconcileHistory.summarize(List.of()).lastSuccess()).isEmpty();
    }

    @Test
    void theLeaseLetsOneHolderAtATimeUntilReleasedOrExpired() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("lease.db");
        Dialect d = Databases.targetForUrl(url);
        try (Connection c = DriverManager.getConnection(url)) {
            assertThat(ReconcileLease.take(c, d, "a", T, T.plusSeconds(60))).isEmpty();
            assertThat(ReconcileLease.take(c, d, "b", T.plusSeconds(10), T.plusSeconds(70))).contains("a until " + T.plusSeconds(60));
            assertThat(ReconcileLease.take(c, d, "a", T.plusSeconds(10), T.plusSeconds(70))).as("the holder renews").isEmpty();
            assertThat(ReconcileLease.take(c, d, "b", T.plusSeconds(71), T.plusSeconds(130))).as("expired").isEmpty();
            ReconcileLease.release(c, d, "a");
            assertThat(ReconcileLease.take(c, d, "a", T.plusSeconds(72), T.plusSeconds(130))).as("a cannot release b's lease").isPresent();
            ReconcileLease.release(c, d, "b");
            assertThat(ReconcileLease.take(c, d, "a", T.plusSeconds(73), T.plusSeconds(130))).isEmpty();
        }
    }
}
