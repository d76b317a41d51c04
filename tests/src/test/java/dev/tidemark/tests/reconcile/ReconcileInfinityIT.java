package dev.tidemark.tests.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import dev.tidemark.reconcile.ReconcileRequest;
import dev.tidemark.reconcile.ReconcileResult;
import dev.tidemark.reconcile.Reconciler;
import dev.tidemark.tests.sink.TargetDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 11, item 1: reconcile said EQUAL while rows differed. PostgreSQL → PostgreSQL, a source row holding
 * {@code infinity} against a target row holding NULL: the in-database checksum rendered both as NULL
 * ({@code to_char} of an infinite timestamp is NULL). The same for the other values whose text was lossy there: a BC
 * date against the same date AD, {@code 24:00} against {@code 00:00}. Every pair is checked on both checksum paths:
 * table {@code t} is checksummed in the database, table {@code tf} (the same plus a {@code float8} column, which
 * engines print differently) is streamed.
 */
class ReconcileInfinityIT {
    /** id, source values, target values: each pair differs in one value. */
    static final String[][] DIFFERING = {
        {"1", "'infinity', 'infinity', '12:00', 'infinity', 1", "NULL, NULL, '12:00', NULL, 1"},
        {"2", "'-infinity', '-infinity', '12:00', '-infinity', 1", "NULL, NULL, '12:00', NULL, 1"},
        {"3", "'infinity', '2020-01-01', '12:00', '2020-01-01', 1", "'-infinity', '2020-01-01', '12:00', '2020-01-01', 1"},
        {"4", "'2020-01-01', '0044-03-15 BC', '12:00', '2020-01-01', 1", "'2020-01-01', '0044-03-15', '12:00', '2020-01-01', 1"},
        {"5", "'0044-03-15 10:00 BC', '2020-01-01', '12:00', '2020-01-01', 1", "'0044-03-15 10:00', '2020-01-01', '12:00', '2020-01-01', 1"},
        {"6", "'2020-01-01', '2020-01-01', '24:00', '2020-01-01', 1", "'2020-01-01', '2020-01-01', '00:00', '2020-01-01', 1"},
        {"7", "'2020-01-01', '2020-01-01', '12:00', '0044-03-15 10:00+00 BC', 1", "'2020-01-01', '2020-01-01', '12:00', '0044-03-15 10:00+00', 1"},
    };
    /** Rows equal on both sides, in shapes the fixes must keep equal. */
    static final String[] EQUAL = {
        "20, 'infinity', '-infinity', '24:00', 'infinity', 1",
        "21, '0044-03-15 10:00 BC', '12345-06-07', '00:00', '12345-06-07 01:02:03.000004+00', 1",
        "22, '2020-01-01 00:00:00.000001', '2020-01-01', '23:59:59.999999', '2020-01-01 00:00+00', 1",
    };

    TargetDatabase source;
    TargetDatabase target;

    @BeforeEach
    void tables() throws Exception {
        source = TargetDatabase.postgres();
        target = TargetDatabase.postgres();
        fill(source, 1);
        fill(target, 2);
    }

    private static void fill(TargetDatabase db, int side) throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            for (String table : new String[] {"t", "tf"}) {
                String floatColumn = table.equals("tf") ? ", f float8" : "";
                s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, ts timestamp, d date, tm time, tz timestamptz, n integer" + floatColumn + ")");
                String floatValue = table.equals("tf") ? ", 1.5" : "";
                for (String[] row : DIFFERING) {
                    s.execute("INSERT INTO " + table + " VALUES (" + row[0] + ", " + row[side] + floatValue + ")");
                }
                for (String row : EQUAL) {
                    s.execute("INSERT INTO " + table + " VALUES (" + row + floatValue + ")");
                }
            }
        }
    }

    @AfterEach
    void drop() throws Exception {
        if (source != null) {
            source.close();
        }
        if (target != null) {
            target.close();
        }
    }

    ReconcileRequest request(String table) {
        return ReconcileRequest.of(ReconcileRequest.Endpoint.of(source.jdbcUrl(), source.properties()), new TableId("public", table),
                ReconcileRequest.Endpoint.of(target.jdbcUrl(), target.properties()), table).withSettle(Duration.ZERO);
    }

    @Test
    void infinityAgainstNullIsChangedInDatabase() throws Exception {
        ReconcileResult r = Reconciler.reconcile(request("t"));
        assertThat(r.method()).isEqualTo("in-database");
        assertThat(r.changed()).as("changed rows (in-database checksums): %s", r).containsExactly("1", "2", "3", "4", "5", "6", "7");
        assertThat(r.equal()).isFalse();
    }

    @Test
    void infinityAgainstNullIsChangedStreamed() throws Exception {
        ReconcileResult r = Reconciler.reconcile(request("tf"));
        assertThat(r.method()).isEqualTo("streamed");
        assertThat(r.changed()).as("changed rows (streamed checksums): %s", r).containsExactly("1", "2", "3", "4", "5", "6", "7");
        assertThat(r.equal()).isFalse();
    }

    @Test
    void smallSegmentsFindTheSameRows() throws Exception {
        ReconcileResult r = Reconciler.reconcile(request("t").withSegmentRows(2));
        assertThat(r.changed()).as("changed rows with 2-row segments: %s", r).containsExactly("1", "2", "3", "4", "5", "6", "7");
    }
}
