package dev.tidemark.connector.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.event.TableId;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads an optional mapping {@code schema.table: name} of captured tables ({@code kafka.topics},
 * {@code target.tables}): each entry for a table in {@code source.tables}, its name substituted and checked; every
 * problem goes to the {@link ConfigReader} as one line naming the entry's key ({@code <key>.<schema.table>}). Entries
 * with a problem are left out of the result.
 */
final class TableMappingReader {
    private TableMappingReader() {
    }

    /**
     * The valid entries of the mapping {@code n} (absent or null: none).
     *
     * @param key     the mapping's key, such as {@code target.tables}
     * @param invalid why a name is refused, empty when it is accepted
     * @param example a mapping shown when {@code n} is no mapping, such as {@code {sales.orders: sales_orders}}
     */
    static Map<TableId, String> read(ConfigReader reader, JsonNode n, String key, List<TableId> tables,
                                     Function<String, Optional<String>> invalid, String example) {
        Map<TableId, String> out = new LinkedHashMap<>();
        if (n.isMissingNode() || n.isNull()) {
            return out;
        }
        if (!n.isObject()) {
            reader.invalid(key, n.isValueNode() ? n.asText() : n.toString(), "expected a mapping of schema.table: name, such as " + example);
            return out;
        }
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String entryKey = key + "." + e.getKey();
            JsonNode v = e.getValue();
            if (!v.isNull() && !v.isValueNode()) {
                reader.invalid(entryKey, v.toString(), "expected a single name");
                continue;
            }
            String name = v.isNull() ? "" : reader.substitute(entryKey, v.asText());
            TableId table = TableId.parse(e.getKey());
            Optional<String> why = invalid.apply(name);
            if (!tables.contains(table)) {
                reader.invalid(entryKey, name, e.getKey() + " is not in source.tables " + tables);
            } else if (why.isPresent()) {
                reader.invalid(entryKey, name, why.get());
            } else {
                out.put(table, name);
            }
        }
        return out;
    }
}
