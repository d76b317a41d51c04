package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import dev.tidemark.reconcile.ReconcileRequest;
import dev.tidemark.reconcile.ReconcileResult;
import dev.tidemark.reconcile.Reconciler;
import dev.tidemark.tests.sink.TargetDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Properties;

/**
 * Reconcile's truthfulness on a captured table: it finds no difference once the target caught up, and after one
 * row's value is changed in the target it reports exactly that row as changed.
 */
final class ReconcileProof {

    private ReconcileProof() {
    }

    /**
     * Asserts that reconcile of {@code t} finds no difference, then sets {@code column} of row {@code id} in the
     * target to the text {@code changed} (cast by the target's column type) and asserts that exactly that row differs.
     */
    static void equalThenExactlyTheChangedRow(CdcFixture f, TargetDatabase target, TableId t, String column, int id,
                                              String changed, String cast) throws Exception {
        ReconcileResult equal = reconcile(f, target, t);
        assertThat(equal.missing()).as("missing").isEmpty();
        assertThat(equal.surplus()).as("surplus").isEmpty();
        assertThat(equal.changed()).as("changed before any change in the target").isEmpty();
        assertThat(equal.sourceRows()).isEqualTo(equal.targetRows());
        try (Connection c = target.connect(); PreparedStatement ps = c.prepareStatement(
                "UPDATE " + t.table() + " SET " + column + " = " + cast + " WHERE id = ?")) {
            ps.setString(1, changed);
            ps.setInt(2, id);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        ReconcileResult after = reconcile(f, target, t);
        assertThat(after.missing()).as("missing").isEmpty();
        assertThat(after.surplus()).as("surplus").isEmpty();
        assertThat(after.changed()).as("changed after row " + id + " changed in the target").containsExactly(Integer.toString(id));
    }

    private static ReconcileResult reconcile(CdcFixture f, TargetDatabase target, TableId t) throws Exception {
        Properties p = new Properties();
        p.setProperty("user", f.pg.user());
        p.setProperty("password", f.pg.password());
        return Reconciler.reconcile(ReconcileRequest.of(ReconcileRequest.Endpoint.of(f.pg.jdbcUrl(f.database), p), t,
                ReconcileRequest.Endpoint.of(target.jdbcUrl(), target.properties()), t.table()).withSettle(Duration.ZERO));
    }
}
