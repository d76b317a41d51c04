package dev.tidemark.sink.jdbc;

import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.SinkException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How a source table names its target table (the table name without its schema: {@code sales.orders} →
 * {@code orders}), and the guard against two source tables meeting in one target table ({@code public.orders} and
 * {@code sales.orders}), whose rows would overwrite each other by key. Names are compared without case, since some
 * targets (SQLite, MariaDB on some systems) do not tell {@code Orders} from {@code orders}.
 *
 * <p>The static methods are pure. An instance remembers, for one sink, which source table each target table was
 * given to first; not thread-safe.
 */
public final class TargetTableNames {
    /** What to do about a clash, as the end of a one-line message. */
    public static final String WAY_OUT = "capture tables of one name in different schemas in separate pipelines, each with "
            + "its own target.url (the target table is the source table's name without its schema)";

    private final Map<String, TableId> owners = new HashMap<>();
    private TableId last;

    /** The target table {@code source} is written to. */
    public static String of(TableId source) {
        return source.table();
    }

    /**
     * The first group of source tables in {@code sources} that would share one target table, as a one-line
     * description naming all of them; empty when every target table is distinct.
     */
    public static Optional<String> clash(Collection<TableId> sources) {
        Map<String, List<TableId>> byTarget = new LinkedHashMap<>();
        for (TableId t : sources) {
            byTarget.computeIfAbsent(key(t), k -> new java.util.ArrayList<>()).add(t);
        }
        return byTarget.values().stream().filter(g -> g.size() > 1).findFirst()
                .map(g -> String.join(" and ", g.stream().map(TableId::toString).toList()) + " would all be written to target table "
                        + of(g.get(0)) + " and their rows would merge");
    }

    /**
     * Claims {@code source}'s target table for it.
     *
     * @throws SinkException a {@link Failure.Fault} naming both source tables when another source table has it
     */
    public void claim(TableId source) {
        if (source.equals(last)) {
            return; // the common case: a batch of one table's events
        }
        TableId owner = owners.putIfAbsent(key(source), source);
        if (owner != null && !owner.equals(source)) {
            throw new SinkException("table " + source + ": target table " + of(source) + " already receives " + owner
                    + "; " + source + " and " + owner + " would merge into one table, so the sink stopped before writing it, "
                    + "offsets not advanced: " + WAY_OUT, null, new Failure.Fault(Failure.Cause.SCHEMA));
        }
        last = source;
    }

    private static String key(TableId t) {
        return of(t).toLowerCase(Locale.ROOT);
    }
}
