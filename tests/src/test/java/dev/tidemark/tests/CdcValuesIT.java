package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.reconcile.ComparisonResult;
import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Inserts, updates and deletes reach SQLite through Debezium and Kafka with exact values. */
class CdcValuesIT {
    static final TableId ITEMS = new TableId("public", "items");

    @TempDir
    Path dir;

    @Test
    void changesArriveWithExactValues() throws Exception {
        try (CdcFixture f = new CdcFixture("values", dir, List.of(ITEMS))) {
            f.sql("CREATE TABLE public.items (id bigint PRIMARY KEY, price numeric(20,6), ratio double precision, "
                    + "happened timestamptz(6), local_ts timestamp(6), day date, label text, flag boolean, payload bytea, small int)",
                    "INSERT INTO items VALUES (1, 12345678901234.123456, 0.1, '2026-03-01 10:15:30.123456+02', "
                            + "'2026-03-01 10:15:30.654321', '2026-03-01', 'it''s \"quoted\" — Zoë 株式会社 🚀', true, '\\x00ff10', 7)",
                    "INSERT INTO items (id) VALUES (2)",
                    "INSERT INTO items (id, price, label, happened) VALUES (3, 0.000001, '', '1999-12-31 23:59:59.999999+00')");
            Sidecar sidecar = f.startPipeline();
            f.awaitEqual(sidecar, ITEMS, "target.db", "id");

            f.sql("UPDATE items SET price = -0.5, label = 'line1\nline2 ''x''', happened = '2026-06-30 23:59:59.000001-07' WHERE id = 1",
                    "DELETE FROM items WHERE id = 3",
                    "INSERT INTO items (id, price, flag, small) VALUES (4, 99999999999999.999999, false, -32768)");
            ComparisonResult r = f.awaitEqual(sidecar, ITEMS, "target.db", "id");
            assertThat(r.sourceRows()).isEqualTo(3);

            try (Connection t = DriverManager.getConnection(f.targetUrl("target.db")); Statement s = t.createStatement();
                 ResultSet rs = s.executeQuery("SELECT id, price, ratio, happened, local_ts, day, label, flag, hex(payload), small, "
                         + "__tidemark_position FROM items ORDER BY id")) {
                List<List<Object>> rows = new ArrayList<>();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= 11; i++) {
                        row.add(rs.getObject(i));
                    }
                    rows.add(row);
                }
                assertThat(rows).hasSize(3);
                assertThat(rows.get(0).subList(0, 10)).containsExactly(1, "-0.500000", 0.1, "2026-07-01T06:59:59.000001Z",
                        "2026-03-01T10:15:30.654321", "2026-03-01", "line1\nline2 'x'", 1, "00FF10", 7);
                assertThat(rows.get(1).subList(0, 10)).isEqualTo(Arrays.asList(2, null, null, null, null, null, null, null, "", null));
                assertThat(rows.get(2).subList(0, 10)).isEqualTo(Arrays.asList(4, "99999999999999.999999", null, null, null, null, null, 0, "", -32768));
                assertThat(rows).allSatisfy(row -> assertThat((String) row.get(10)).startsWith("lsn:"));
            }
        }
    }
}
