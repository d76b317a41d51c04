package dev.tidemark.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A repair acts on the source as it is when the repair runs, not as it was when the reconcile listed the key: CDC
 * goes on between the two. SQLite source and SQLite target (files in a temporary folder); the target is written by
 * the sink writer, as CDC writes it.
 */
class RepairRecheckTest {
    private static final TableId EVENT_TABLE = new TableId("", "items");
    private static final RowSchema SCHEMA = new RowSchema(List.of(new Column("id", ColumnType.of("int64"), false),
            new Column("label", ColumnType.of("string"), true)), List.of("id"));

    @TempDir
    Path dir;
    private String sourceUrl;
    private String targetUrl;

    @BeforeEach
    void tables() throws SQLException {
        sourceUrl = "jdbc:sqlite:" + dir.resolve("source.db");
        targetUrl = "jdbc:sqlite:" + dir.resolve("target.db");
        try (Connection c = DriverManager.getConnection(sourceUrl); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT)");
            for (int id = 1; id <= 10; id++) {
                st.execute("INSERT INTO items VALUES (" + id + ", 'row " + id + "')");
            }
        }
        List<ChangeEvent> events = new ArrayList<>();
        for (int id = 1; id <= 11; id++) {
            events.add(upsert(id, "row " + id, 100 + id));
        }
        apply(events);
    }

    @Test
    void aSurplusKeyTheSourceHasReinsertedSinceTheReconcileIsNotDeleted() throws SQLException {
        ReconcileResult before = Reconciler.reconcile(request());
        assertThat(before.surplus()).as("row 11, deleted at the source, not yet on the target").containsExactly("11");
        Repair.Plan plan = Repair.plan(before);

        // between the reconcile and the repair: the source re-inserts 11 and CDC applies its delete and the insert
        execute(sourceUrl, "INSERT INTO items VALUES (11, 'back')");
        apply(List.of(new ChangeEvent.Delete(EVENT_TABLE, Map.of("id", 11L), new SourcePosition.Lsn(200), false),
                upsert(11, "back", 201)));

        Repair.Outcome done = Repair.apply(request(), plan, 0.5, false);

        assertThat(targetLabel(11)).as("the row the source re-inserted, already applied by CDC").isEqualTo("back");
        assertThat(done.deleted()).isZero();
        assertThat(done.reappeared()).isEqualTo(1);
        assertThat(Reconciler.reconcile(request()).equal()).as("target equal to the source after the repair").isTrue();
    }

    @Test
    void aSurplusKeyTheSourceReinsertedBeforeCdcAppliedItStaysForCdc() throws SQLException {
        Repair.Plan plan = Repair.plan(Reconciler.reconcile(request()));
        execute(sourceUrl, "INSERT INTO items VALUES (11, 'back')");

        Repair.Outcome done = Repair.apply(request(), plan, 0.5, false);

        assertThat(done.deleted()).isZero();
        assertThat(done.reappeared()).isEqualTo(1);
        assertThat(targetLabel(11)).as("left for the pending events of key 11").isEqualTo("row 11");
        apply(List.of(new ChangeEvent.Delete(EVENT_TABLE, Map.of("id", 11L), new SourcePosition.Lsn(200), false),
                upsert(11, "back", 201)));
        assertThat(Reconciler.reconcile(request()).equal()).as("equal once CDC applied them").isTrue();
    }

    @Test
    void aSurplusKeyStillAbsentFromTheSourceIsDeleted() throws SQLException {
        Repair.Outcome done = Repair.apply(request(), Repair.plan(Reconciler.reconcile(request())), 0.5, false);

        assertThat(done.deleted()).isEqualTo(1);
        assertThat(done.reappeared()).isZero();
        assertThat(targetLabel(11)).isNull();
        assertThat(Reconciler.reconcile(request()).equal()).isTrue();
    }

    private ReconcileRequest request() {
        return ReconcileRequest.of(ReconcileRequest.Endpoint.of(sourceUrl, new Properties()), new TableId("", "items"),
                ReconcileRequest.Endpoint.of(targetUrl, new Properties()), "items").withSettle(Duration.ZERO);
    }

    private void apply(List<ChangeEvent> events) throws SQLException {
        try (JdbcChangeSink sink = JdbcChangeSink.open(targetUrl, new Properties(), SinkOptions.defaults("cdc"))) {
            sink.apply(events, List.of());
        }
    }

    private static ChangeEvent.Upsert upsert(long id, String label, long lsn) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", id);
        row.put("label", label);
        return new ChangeEvent.Upsert(EVENT_TABLE, Map.of("id", id), SCHEMA, row, new SourcePosition.Lsn(lsn), ChangeEvent.Op.CREATE);
    }

    private static void execute(String url, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private String targetLabel(long id) throws SQLException {
        try (Connection c = DriverManager.getConnection(targetUrl);
             PreparedStatement ps = c.prepareStatement("SELECT label FROM items WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
