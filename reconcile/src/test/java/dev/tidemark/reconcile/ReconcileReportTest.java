package dev.tidemark.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.jdbc.ValueKind;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReconcileReportTest {
    static final Instant T = Instant.parse("2026-05-01T10:00:00Z");

    static ReconcileResult result(List<ValueKind> kinds, List<RowKey> changed, List<ChangedRow> rows) {
        return new ReconcileResult("public.items", "items", List.of("id", "name"), 3, 3, List.of(), List.of(), changed, 0, 0,
                changed.size(), "time:" + T, T, T, changed.size(), 0, "merged",
                new ReconcileResult.Stats(1, 0, 1, 6, Duration.ZERO), null, kinds, rows);
    }

    @Test
    void theTextReportShowsWhatChangedInTheFirstShownKeys() {
        List<RowKey> keys = new ArrayList<>();
        List<ChangedRow> rows = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            RowKey k = RowKey.of(Integer.toString(i), "n");
            keys.add(k);
            rows.add(new ChangedRow(k, List.of(new ChangedRow.ColumnChange("note", i == 1 ? null : "it's\n" + i, "x".repeat(70)))));
        }
        String text = ReconcileReport.text(result(List.of(ValueKind.INTEGER, ValueKind.TEXT), keys, rows), 2);
        assertThat(text).contains("    1,n: note NULL → '" + "x".repeat(60) + "…'")
                .contains("    2,n: note 'it\\'s\\n2' → '")
                .doesNotContain("    3,n:");
    }

    @Test
    void jsonKeepsKeyTypesAndListsEveryChangedRow() throws Exception {
        RowKey k = RowKey.of("42", "abc");
        ChangedRow row = new ChangedRow(k, List.of(new ChangedRow.ColumnChange("amount", "12.5", null)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ReconcileReport.json(List.of(result(List.of(ValueKind.INTEGER, ValueKind.TEXT), List.of(k), List.of(row))), out);
        JsonNode changed = new ObjectMapper().readTree(out.toByteArray()).get("tables").get(0).get("changed");
        assertThat(changed.get("keys").get(0).get("id").isIntegralNumber()).isTrue();
        assertThat(changed.get("keys").get(0).get("id").asLong()).isEqualTo(42);
        assertThat(changed.get("keys").get(0).get("name").asText()).isEqualTo("abc");
        assertThat(changed.get("rows").get(0).get("key").get("id").asLong()).isEqualTo(42);
        assertThat(changed.get("rows").get(0).get("columns").get("amount").get("source").asText()).isEqualTo("12.5");
        assertThat(changed.get("rows").get(0).get("columns").get("amount").get("target").isNull()).isTrue();
    }

    @Test
    void keyValuesAreTypedByKind() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (var g = new com.fasterxml.jackson.core.JsonFactory().createGenerator(out)) {
            g.writeStartArray();
            ReconcileReport.typed(g, ValueKind.INTEGER, "-9223372036854775808");
            ReconcileReport.typed(g, ValueKind.DECIMAL, "12.50000000000000000001");
            ReconcileReport.typed(g, ValueKind.FLOAT, "NaN");
            ReconcileReport.typed(g, ValueKind.BOOLEAN, "true");
            ReconcileReport.typed(g, ValueKind.DATE, "2026-01-02");
            g.writeEndArray();
        }
        assertThat(out.toString()).isEqualTo("[-9223372036854775808,12.50000000000000000001,\"NaN\",true,\"2026-01-02\"]");
    }
}
