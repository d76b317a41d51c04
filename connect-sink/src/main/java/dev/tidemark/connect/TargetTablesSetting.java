package dev.tidemark.connect;

import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.TargetTableNames;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;

/**
 * The plugin's {@code target.tables}: a list {@code schema.table:target_table,…} naming the target table of source
 * tables explicitly (the others keep their name without schema, {@link TargetTableNames}). The last {@code :} of an
 * entry separates the two names, so a target table name cannot hold {@code :}, and no name can hold {@code ,}
 * (Connect splits lists there). A bad entry fails with Connect's one-line shape naming the entry; tables the sink was
 * not told about that meet in one target table stop the task when their events arrive ({@link
 * dev.tidemark.sink.jdbc.TargetTableClaims}), naming the setting that parts them.
 */
final class TargetTablesSetting {
    static final String KEY = "target.tables";

    private TargetTablesSetting() {
    }

    /**
     * The target table names the entries give.
     *
     * @throws ConfigException naming the first bad entry
     */
    static TargetTableNames parse(List<String> entries) {
        Map<TableId, String> explicit = new LinkedHashMap<>();
        Map<String, TableId> byTarget = new HashMap<>();
        for (String raw : entries) {
            String entry = raw.trim();
            int colon = entry.lastIndexOf(':');
            if (colon <= 0 || entry.substring(0, colon).indexOf('.') <= 0) {
                throw new ConfigException(KEY, entry, "expected schema.table:target_table, such as sales.orders:sales_orders");
            }
            TableId source = TableId.parse(entry.substring(0, colon).trim());
            String target = entry.substring(colon + 1).trim();
            Optional<String> why = TargetTableNames.invalid(target);
            if (why.isPresent()) {
                throw new ConfigException(KEY, entry, why.get());
            }
            TableId other = byTarget.putIfAbsent(target.toLowerCase(Locale.ROOT), source);
            if (explicit.containsKey(source) || other != null) {
                throw new ConfigException(KEY, entry, explicit.containsKey(source) ? source + " is named twice"
                        : other + " and " + source + " would both be written to target table " + target + " and their rows would merge");
            }
            explicit.put(source, target);
        }
        return new TargetTableNames(explicit, TargetTableNames.Syntax.CONNECT);
    }
}
