package dev.tidemark.connector.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.jdbc.TargetTableNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code target.tables} (an optional mapping {@code schema.table: target table}, one entry per captured table
 * whose target table is named explicitly) and checks that no two captured tables share a target table
 * ({@link TargetTableNames}), each problem one line through the {@link ConfigReader}: an entry for a table not in
 * {@code source.tables} or a name the target cannot hold ({@code target.tables.<table>}); an explicit name another
 * captured table has too ({@code target.tables.<table>}, naming a free one); tables left to their default names that
 * meet ({@code source.tables}, naming the mapping that parts them all). A table whose entry was refused is left out of
 * the clash check.
 */
final class TargetTablesSection {
    private TargetTablesSection() {
    }

    /** The target table names of {@code tables}; every problem goes to {@code reader}. */
    static TargetTableNames read(ConfigReader reader, JsonNode target, List<TableId> tables) {
        JsonNode n = target.path("tables");
        TargetTableNames names = new TargetTableNames(TableMappingReader.read(reader, n, "target.tables", tables,
                TargetTableNames::invalid, "{sales.orders: sales_orders}"));
        List<TableId> checked = new ArrayList<>(tables);
        n.fieldNames().forEachRemaining(k -> checked.removeIf(t -> t.equals(TableId.parse(k)) && !names.explicit().containsKey(t)));
        check(reader, names, checked);
        return names;
    }

    private static void check(ConfigReader reader, TargetTableNames names, List<TableId> tables) {
        Map<TableId, String> suggestions = names.suggestions(tables);
        List<String> unnamed = new ArrayList<>();
        for (TargetTableNames.Clash c : names.clashes(tables)) {
            boolean anyUnnamed = false;
            for (TableId t : c.tables()) {
                if (suggestions.containsKey(t) && names.explicit().containsKey(t)) {
                    reader.invalid("target.tables." + t, names.explicit().get(t), c.describe() + "; name another target table for "
                            + t + ", such as " + suggestions.get(t));
                } else if (suggestions.containsKey(t)) {
                    anyUnnamed = true;
                }
            }
            if (anyUnnamed) {
                unnamed.add(c.describe());
            }
        }
        if (!unnamed.isEmpty()) {
            reader.invalid("source.tables", tables.toString(), String.join(", ", unnamed) + "; " + names.wayOut(suggestions));
        }
    }
}
