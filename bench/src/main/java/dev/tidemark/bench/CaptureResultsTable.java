package dev.tidemark.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The Markdown table of one {@code bench/capture.sh} variant: rates, ratios, CPU and memory per contender and round. */
final class CaptureResultsTable {
    private CaptureResultsTable() {
    }

    static double rate(Map<String, String> m) {
        return Double.parseDouble(m.get("changes")) / Double.parseDouble(m.get("seconds"));
    }

    static String markdown(CaptureBacklog backlog, List<Map<String, String>> results, int rounds) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "Backlog `%s`: %,d changes, %,d-row transactions. Round 1 = cold JVM, later rounds = warm (same JVM).%n%n",
                backlog.name(), backlog.changes(), backlog.txnRows()));
        b.append("| contender | round | changes/s | × Debezium engine → Kafka | × pg_recvlogical | process CPU (s) | walsender CPU (s) | peak heap | peak RSS |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Map<String, String> m : results) {
            if (m.containsKey("skipped")) {
                b.append("| ").append(m.get("contender")).append(" | – | ").append(m.get("skipped")).append(" | | | | | | |\n");
                continue;
            }
            String round = m.get("round");
            b.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %s | %s | %s | %s | %s | %s |%n", m.get("contender"),
                    "1".equals(round) ? "1 cold" : round + " warm", rate(m), ratio(m, results, CaptureContender.DEBEZIUM_KAFKA),
                    ratio(m, results, CaptureContender.PG_RECVLOGICAL), m.get("cpu"), m.getOrDefault("walsender", "?"),
                    SinkResultsTable.mib(m.get("heap")), SinkResultsTable.mib(m.get("rss"))));
        }
        for (int r = 1; r <= rounds; r++) {
            Map<String, String> t = find(results, CaptureContender.TIDEMARK_CAPTURE, r);
            Map<String, String> d = find(results, CaptureContender.DEBEZIUM_KAFKA, r);
            Map<String, String> pg = find(results, CaptureContender.PG_RECVLOGICAL, r);
            if (t != null && d != null) {
                double x = rate(t) / rate(d);
                b.append(String.format(Locale.ROOT, "%nGoal, round %d: tidemark-capture ≥ 1.3× debezium-kafka: %.2f× — %s", r, x, x >= 1.3 ? "met" : "NOT met"));
            }
            for (CaptureContender run : new CaptureContender[] {CaptureContender.TIDEMARK_RUN_SQLITE, CaptureContender.TIDEMARK_RUN_POSTGRES}) {
                Map<String, String> e = find(results, run, r);
                if (t != null && e != null) {
                    double x = rate(e) / rate(t);
                    b.append(String.format(Locale.ROOT, "%nGoal, round %d: %s ≥ 0.8× tidemark-capture: %.2f× — %s", r, run.id, x, x >= 0.8 ? "met" : "NOT met"));
                }
            }
            if (t != null && pg != null) {
                double x = rate(t) / rate(pg);
                b.append(String.format(Locale.ROOT, "%nGoal, round %d: tidemark-capture ≥ 0.3× pg_recvlogical: %.2f× — %s", r, x, x >= 0.3 ? "met" : "NOT met"));
            }
        }
        return b.append('\n').toString();
    }

    private static String ratio(Map<String, String> m, List<Map<String, String>> results, CaptureContender base) {
        Map<String, String> other = find(results, base, Integer.parseInt(m.get("round")));
        return other == null ? "–" : String.format(Locale.ROOT, "%.2f×", rate(m) / rate(other));
    }

    private static Map<String, String> find(List<Map<String, String>> results, CaptureContender c, int round) {
        return results.stream().filter(m -> !m.containsKey("skipped") && m.get("contender").equals(c.id) && m.get("round").equals(Integer.toString(round)))
                .findFirst().orElse(null);
    }
}
