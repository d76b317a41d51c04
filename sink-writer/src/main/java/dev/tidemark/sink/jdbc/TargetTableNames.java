package dev.tidemark.sink.jdbc;

import dev.tidemark.event.TableId;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The one rule naming a source table's target table, used by the sink, reconcile and {@code drop} alike: its entry in
 * the explicit mapping ({@code target.tables: {sales.orders: sales_orders}}) when it has one, else the source table's
 * name without its schema ({@code sales.orders} → {@code orders}). Target table names are compared without case,
 * since some targets (SQLite, MariaDB on some systems) do not tell {@code Orders} from {@code orders}: two source
 * tables whose target tables compare equal would overwrite each other's rows by key ({@link #clashes}).
 *
 * <p>Immutable and pure.
 *
 * @param explicit the target table of each source table named explicitly, in the order given
 * @param syntax   how the mapping is written where it was configured, for advice in messages
 */
public record TargetTableNames(Map<TableId, String> explicit, Syntax syntax) {
    /** No explicit names: every target table is its source table's name without schema. */
    public static final TargetTableNames DEFAULT = new TargetTableNames(Map.of(), Syntax.PIPELINE_FILE);
    /** The longest name accepted, in UTF-8 bytes: PostgreSQL would cut a longer one short, MariaDB refuses it. */
    public static final int MAX_BYTES = 63;

    /** Where a mapping is configured, and so how a message writes one. */
    public enum Syntax {
        /** A pipeline file: {@code target.tables: {sales.orders: sales_orders}}. */
        PIPELINE_FILE,
        /** The Kafka Connect sink plugin: {@code target.tables=sales.orders:sales_orders}. */
        CONNECT;

        /** {@code entries} as this syntax writes the setting. */
        public String write(Map<TableId, String> entries) {
            return switch (this) {
                case PIPELINE_FILE -> "target.tables: {" + entries.entrySet().stream()
                        .map(e -> yaml(e.getKey().toString()) + ": " + yaml(e.getValue())).collect(Collectors.joining(", ")) + "}";
                case CONNECT -> "target.tables=" + entries.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue())
                        .collect(Collectors.joining(","));
            };
        }
    }

    /** {@code text} as a YAML flow scalar: as it is where YAML reads it back so, else single-quoted. */
    private static String yaml(String text) {
        return PLAIN_YAML.matcher(text).matches() ? text : "'" + text.replace("'", "''") + "'";
    }

    private static final Pattern PLAIN_YAML = Pattern.compile("[A-Za-z_][A-Za-z0-9_.$]*( [A-Za-z0-9_.$]+)*");

    /** Source tables that would all be written to one target table. */
    public record Clash(String target, List<TableId> tables) {
        public Clash {
            tables = List.copyOf(tables);
        }

        /** {@code public.orders and sales.orders would all be written to target table orders and their rows would merge}. */
        public String describe() {
            return tables.stream().map(TableId::toString).collect(Collectors.joining(" and "))
                    + " would all be written to target table " + target + " and their rows would merge";
        }
    }

    public TargetTableNames {
        explicit = Collections.unmodifiableMap(new LinkedHashMap<>(explicit));
    }

    /** The explicit names of a pipeline file. */
    public TargetTableNames(Map<TableId, String> explicit) {
        this(explicit, Syntax.PIPELINE_FILE);
    }

    /** The target table {@code source} is written to. */
    public String of(TableId source) {
        String named = explicit.get(source);
        return named != null ? named : byDefault(source);
    }

    /** The target table of a source table without an explicit name: its name without schema. */
    public static String byDefault(TableId source) {
        return source.table();
    }

    /** Why {@code name} cannot name a target table; empty when it can. */
    public static Optional<String> invalid(String name) {
        if (name == null || name.isBlank()) {
            return Optional.of("a target table name cannot be empty");
        }
        if (!name.strip().equals(name)) {
            return Optional.of("a target table name cannot begin or end with a space");
        }
        if (name.indexOf('.') >= 0) {
            return Optional.of("a target table name has no schema and no '.' (the target's schema is the one its connection uses)");
        }
        if (name.chars().anyMatch(Character::isISOControl)) {
            return Optional.of("a target table name cannot hold control characters");
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            return Optional.of("a target table name has at most " + MAX_BYTES + " bytes in UTF-8");
        }
        if (name.toLowerCase(Locale.ROOT).startsWith("tidemark_")) {
            return Optional.of("names beginning with tidemark_ are the sink's own tables");
        }
        return Optional.empty();
    }

    /** Every group of {@code sources} that would share one target table, in the order of their first table. */
    public List<Clash> clashes(Collection<TableId> sources) {
        Map<String, List<TableId>> byTarget = new LinkedHashMap<>();
        for (TableId t : sources) {
            byTarget.computeIfAbsent(key(of(t)), k -> new ArrayList<>()).add(t);
        }
        return byTarget.values().stream().filter(g -> g.size() > 1).map(g -> new Clash(of(g.get(0)), g)).toList();
    }

    /**
     * Names that part every clash among {@code sources}: the first table of each clash not named explicitly (else its
     * first table) keeps the target table; each other one gets {@code <schema>_<table>} (with {@code _2}, {@code _3}…
     * when that is taken too).
     */
    public Map<TableId, String> suggestions(Collection<TableId> sources) {
        Set<String> taken = new HashSet<>();
        sources.forEach(t -> taken.add(key(of(t))));
        Map<TableId, String> out = new LinkedHashMap<>();
        for (Clash c : clashes(sources)) {
            TableId keeper = c.tables().stream().filter(t -> !explicit.containsKey(t)).findFirst().orElse(c.tables().get(0));
            for (TableId t : c.tables()) {
                if (t.equals(keeper)) {
                    continue;
                }
                out.put(t, suggestion(t, taken));
            }
        }
        return out;
    }

    /**
     * {@code <schema>_<table>}, or with {@code _2}, {@code _3}… the first whose {@link #key} is not in {@code taken}
     * (added); always a name {@link #invalid} accepts ({@code .} and control characters become {@code _}, a long name
     * is cut short).
     */
    static String suggestion(TableId t, Set<String> taken) {
        String base = ((t.schema().isEmpty() ? "" : t.schema() + "_") + t.table()).replaceAll("[.\\p{Cntrl}]", "_").strip();
        base = key(base).startsWith("tidemark_") ? "t_" + base : base;
        while (base.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES - 4) {
            base = base.substring(0, base.offsetByCodePoints(base.length(), -1));
        }
        String name = base;
        for (int n = 2; !taken.add(key(name)); n++) {
            name = base + "_" + n;
        }
        return name;
    }

    /**
     * The setting that applies {@code suggestions} on top of the explicit names, as the way out of a message:
     * {@code add target.tables: {sales.orders: sales_orders}} where there are no explicit names yet, else
     * {@code set …} with all of them.
     */
    public String wayOut(Map<TableId, String> suggestions) {
        Map<TableId, String> all = new LinkedHashMap<>(explicit);
        all.putAll(suggestions);
        return (explicit.isEmpty() && syntax == Syntax.PIPELINE_FILE ? "add " : "set ") + syntax.write(all);
    }

    /** The name as target tables are compared: without case. */
    static String key(String target) {
        return target.toLowerCase(Locale.ROOT);
    }
}
