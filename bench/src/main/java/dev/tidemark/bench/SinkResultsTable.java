package dev.tidemark.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The sink benchmark's results: the best round per contender (interference from other processes only ever slows a
 * run down) side by side, with each contender's ratio to its baseline and the goals checked. Prints only; every figure
 * comes from the contenders' own result lines.
 */
final class SinkResultsTable {
    private final long events;
    private final int rounds;
    private final List<Map<String, String>> results;

    SinkResultsTable(long events, int rounds, List<Map<String, String>> results) {
        this.events = events;
        this.rounds = rounds;
        this.results = List.copyOf(results);
    }

    void print() {
        // best round per contender (interference from other processes only ever slows a run down)
        Map<String, Map<String, String>> byId = new LinkedHashMap<>();
        Map<String, List<String>> allRates = new LinkedHashMap<>();
        for (Map<String, String> r : results) {
            String id = r.get("contender");
            Map<String, String> best = byId.get(id);
            if (!r.containsKey("skipped")) {
                allRates.computeIfAbsent(id, k -> new ArrayList<>()).add(String.format(Locale.ROOT, "%,.0f", Double.parseDouble(r.get("eps"))));
            }
            if (best == null || best.containsKey("skipped")
                    || !r.containsKey("skipped") && Double.parseDouble(r.get("eps")) > Double.parseDouble(best.get("eps"))) {
                byId.put(id, r);
            }
        }
        System.out.println();
        System.out.println("Results (" + String.format(Locale.ROOT, "%,d", events) + " records; events/s counted from the first "
                + "committed batch to the last; peak heap = max of 5 ms samples and pre-GC usage; peak RSS = VmHWM)");
        String fmt = "  %-25s %10s %9s %11s %-20s %10s %10s %9s %9s%n";
        System.out.printf(Locale.ROOT, fmt, "contender", "events", "seconds", "events/s", "ratio", "peak heap", "peak RSS", "decode s", "apply s");
        for (Map<String, String> r : byId.values()) {
            String id = r.get("contender");
            if (r.containsKey("skipped")) {
                System.out.printf(Locale.ROOT, "  %-25s %s%n", id, r.get("skipped"));
                continue;
            }
            System.out.printf(Locale.ROOT, fmt, id, String.format(Locale.ROOT, "%,d", Long.parseLong(r.get("events"))),
                    String.format(Locale.ROOT, "%.1f", Double.parseDouble(r.get("seconds"))),
                    String.format(Locale.ROOT, "%,.0f", Double.parseDouble(r.get("eps"))), ratio(id, byId),
                    mib(r.get("heap")), mib(r.get("rss")), secs(r.get("decode")), secs(r.get("apply")));
        }
        if (rounds > 1) {
            System.out.println("  events/s per round: " + allRates);
        }
        System.out.println();
        goal("SQLite: Tidemark sink / raw JDBC loop", byId, "tidemark-sqlite", "raw-sqlite", 0.70);
        goal("PostgreSQL: Tidemark sink / per-row addBatch upsert", byId, "tidemark-postgres", "raw-pg-rows", 1.5);
        goal("PostgreSQL: Tidemark sink / UNNEST upsert (for scale; no goal)", byId, "tidemark-postgres", "raw-pg-unnest", Double.NaN);
        goal("PostgreSQL: Tidemark sink / min(poll-only, UNNEST set write)", byId, "tidemark-postgres", slower(byId, "kafka-only", "raw-pg-unnest"), 0.5);
        goal("SQLite: Tidemark sink / min(poll-only, raw JDBC loop)", byId, "tidemark-sqlite", slower(byId, "kafka-only", "raw-sqlite"), 0.5);
        goal("PostgreSQL: Tidemark sink / Debezium JDBC sink at its best batch", byId, "tidemark-postgres",
                faster(byId, "debezium-jdbc-postgres", "debezium-jdbc-postgres-500"), 2.0);
    }

    /** The slower of two contenders that ran (the bound a sink cannot beat), or the one that ran. */
    private static String slower(Map<String, Map<String, String>> byId, String a, String b) {
        Double ra = rate(a, byId);
        Double rb = rate(b, byId);
        return ra == null ? b : rb == null ? a : ra <= rb ? a : b;
    }

    /** The faster of two contenders that ran (a contender at its best setting), or the one that ran. */
    private static String faster(Map<String, Map<String, String>> byId, String a, String b) {
        Double ra = rate(a, byId);
        Double rb = rate(b, byId);
        return ra == null ? b : rb == null ? a : ra >= rb ? a : b;
    }

    private static String ratio(String id, Map<String, Map<String, String>> byId) {
        return switch (id) {
            case "tidemark-sqlite" -> versus(id, "raw-sqlite", byId);
            case "tidemark-postgres", "raw-pg-unnest", "debezium-jdbc-postgres", "debezium-jdbc-postgres-500" -> versus(id, "raw-pg-rows", byId);
            case "raw-sqlite", "raw-pg-rows" -> "(baseline)";
            default -> "(breakdown)";
        };
    }

    private static String versus(String id, String base, Map<String, Map<String, String>> byId) {
        Double r = rate(id, byId);
        Double b = rate(base, byId);
        return r == null || b == null ? "" : String.format(Locale.ROOT, "%.2f× %s", r / b, base);
    }

    private static Double rate(String id, Map<String, Map<String, String>> byId) {
        Map<String, String> r = byId.get(id);
        return r == null || r.containsKey("skipped") ? null : Double.parseDouble(r.get("eps"));
    }

    private static void goal(String what, Map<String, Map<String, String>> byId, String id, String base, double goal) {
        Double r = rate(id, byId);
        Double b = rate(base, byId);
        if (r == null || b == null) {
            System.out.println("  " + what + ": n/a (" + (r == null ? id : base) + " did not run)");
            return;
        }
        double ratio = r / b;
        System.out.printf(Locale.ROOT, "  %s: %,.0f / %,.0f events/s = %.2f×%s%n", what, r, b, ratio,
                Double.isNaN(goal) ? "" : String.format(Locale.ROOT, " (goal ≥ %.2f×: %s)", goal, ratio >= goal ? "MET" : "MISSED"));
    }

    static String mib(String bytes) {
        long b = Long.parseLong(bytes);
        return b < 0 ? "n/a" : String.format(Locale.ROOT, "%,.0f MiB", b / 1048576.0);
    }

    private static String secs(String s) {
        double d = Double.parseDouble(s);
        return d < 0 ? "" : String.format(Locale.ROOT, "%.1f", d);
    }
}
