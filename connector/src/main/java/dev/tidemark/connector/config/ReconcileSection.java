package dev.tidemark.connector.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the optional {@code reconcile:} section into a {@link ReconcileSchedule}; each bad value is one problem line
 * naming its key ({@code reconcile.every}, {@code reconcile.tables[1]}, …) through the {@link ConfigReader}.
 */
final class ReconcileSection {
    static final Set<String> KEYS = Set.of("every", "tables", "settle", "repair", "maxDeleteShare", "budget");
    static final Duration MIN_EVERY = Duration.ofSeconds(1);

    private final ConfigReader reader;

    private ReconcileSection(ConfigReader reader) {
        this.reader = reader;
    }

    /** The schedule under {@code root.reconcile}, or {@link ReconcileSchedule#OFF} when the section is absent. */
    static ReconcileSchedule read(ConfigReader reader, JsonNode root, List<TableId> captured) {
        JsonNode n = root.path("reconcile");
        if (n.isMissingNode() || n.isNull()) {
            return ReconcileSchedule.OFF;
        }
        JsonNode s = reader.section(root, "reconcile", KEYS);
        if (s.isMissingNode()) {
            return ReconcileSchedule.OFF;
        }
        return new ReconcileSection(reader).schedule(s, captured);
    }

    private ReconcileSchedule schedule(JsonNode s, List<TableId> captured) {
        Duration every = every(s);
        Duration settle = duration(s, "settle", ReconcileSchedule.DEFAULT_SETTLE, Duration.ZERO);
        Duration budget = duration(s, "budget", every, MIN_EVERY);
        if (settle.compareTo(every) >= 0 && every.compareTo(MIN_EVERY) >= 0) {
            reader.invalid("reconcile.settle", Durations.format(settle), "must be shorter than reconcile.every " + Durations.format(every));
        }
        if (budget.compareTo(every) > 0 && every.compareTo(MIN_EVERY) >= 0) {
            reader.invalid("reconcile.budget", Durations.format(budget), "must be at most reconcile.every " + Durations.format(every)
                    + " (a run never overlaps the next one)");
            budget = every;
        }
        return new ReconcileSchedule(every, tables(s, captured), settle, repair(s), share(s), budget);
    }

    private Duration every(JsonNode s) {
        String raw = reader.text(s, "every", "reconcile.every", null, true);
        if (raw == null) {
            return ReconcileSchedule.OFF.every();
        }
        if (raw.trim().contains(" ")) {
            reader.invalid("reconcile.every", raw, "cron expressions are not supported; give a period such as 1h or 30m");
            return ReconcileSchedule.OFF.every();
        }
        return parse("reconcile.every", raw, ReconcileSchedule.OFF.every(), MIN_EVERY);
    }

    /** {@code reconcile.<field>}: a duration at least {@code min}, or {@code fallback} when absent or bad (a problem). */
    private Duration duration(JsonNode s, String field, Duration fallback, Duration min) {
        String key = "reconcile." + field;
        String raw = reader.text(s, field, key, null, false);
        return raw == null ? fallback : parse(key, raw, fallback, min);
    }

    private Duration parse(String key, String raw, Duration fallback, Duration min) {
        try {
            Duration d = Durations.parse(raw.trim());
            if (d.compareTo(min) < 0) {
                reader.invalid(key, raw, "must be at least " + Durations.format(min));
                return fallback;
            }
            return d;
        } catch (IllegalArgumentException e) {
            reader.invalid(key, raw, e.getMessage());
            return fallback;
        }
    }

    private List<TableId> tables(JsonNode s, List<TableId> captured) {
        JsonNode t = reader.list(s, "tables", "reconcile.tables", "[public.orders]");
        if (t == null || t.isEmpty()) {
            if (t != null && s.has("tables")) {
                reader.invalid("reconcile.tables", "[]", "list at least one table of source.tables, or leave the key out for all");
            }
            return captured;
        }
        List<TableId> out = new ArrayList<>();
        for (int i = 0; i < t.size(); i++) {
            String key = "reconcile.tables[" + i + "]";
            String q = reader.substitute(key, t.get(i).asText());
            if (q == null || q.indexOf('.') <= 0) {
                reader.invalid(key, q, "expected schema.table");
            } else if (!captured.contains(TableId.parse(q))) {
                reader.invalid(key, q, "not in source.tables " + captured);
            } else {
                out.add(TableId.parse(q));
            }
        }
        return out;
    }

    private ReconcileSchedule.Repair repair(JsonNode s) {
        String raw = reader.text(s, "repair", "reconcile.repair", "report", false);
        // YAML 1.1 reads an unquoted off as false
        String v = raw == null ? "report" : raw.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "off", "false" -> ReconcileSchedule.Repair.OFF;
            case "report" -> ReconcileSchedule.Repair.REPORT;
            case "auto" -> ReconcileSchedule.Repair.AUTO;
            default -> {
                reader.invalid("reconcile.repair", raw, "expected off, report or auto");
                yield ReconcileSchedule.Repair.REPORT;
            }
        };
    }

    private double share(JsonNode s) {
        String raw = reader.text(s, "maxDeleteShare", "reconcile.maxDeleteShare", null, false);
        if (raw == null) {
            return ReconcileSchedule.DEFAULT_MAX_DELETE_SHARE;
        }
        String t = raw.trim();
        try {
            double v = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1)) / 100 : Double.parseDouble(t);
            if (v >= 0 && v <= 1) {
                return v;
            }
            reader.invalid("reconcile.maxDeleteShare", raw, "must be between 0% and 100%");
        } catch (NumberFormatException e) {
            reader.invalid("reconcile.maxDeleteShare", raw, "expected a percentage (10%) or a fraction (0.1)");
        }
        return ReconcileSchedule.DEFAULT_MAX_DELETE_SHARE;
    }
}
