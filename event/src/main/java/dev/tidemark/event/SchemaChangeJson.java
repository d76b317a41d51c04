package dev.tidemark.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The {@code ddl} field of a schema-change envelope: a JSON text
 * {@code {"v":1,"statement":…,"changes":[{"kind":"added","column":…,"type":{…},"value":…}, {"kind":"renamed","from":…,"to":…},
 * {"kind":"dropped","column":…},
 * {"kind":"retyped","column":…,"from":…,"to":…}]}}. A version or kind this code does not know is refused. Pure.
 */
public final class SchemaChangeJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private SchemaChangeJson() {
    }

    /** The JSON text of {@code change}'s statement and column changes. */
    public static String encode(ChangeEvent.SchemaChange change) {
        ObjectNode root = F.objectNode();
        root.put("v", 1);
        root.put("statement", change.statement());
        ArrayNode changes = root.putArray("changes");
        for (ChangeEvent.ColumnChange c : change.changes()) {
            ObjectNode o = changes.addObject();
            if (c instanceof ChangeEvent.ColumnChange.Added a) {
                o.put("kind", "added");
                o.put("column", a.column());
                ObjectNode t = o.putObject("type");
                t.put("connect", a.type().connectType());
                if (a.type().logicalName() != null) {
                    t.put("logical", a.type().logicalName());
                }
                ObjectNode p = t.putObject("parameters");
                a.type().parameters().forEach(p::put);
                if (a.value() == null) {
                    o.putNull("value");
                } else {
                    o.put("value", a.value());
                }
            } else if (c instanceof ChangeEvent.ColumnChange.Renamed r) {
                o.put("kind", "renamed");
                o.put("from", r.from());
                o.put("to", r.to());
            } else if (c instanceof ChangeEvent.ColumnChange.Dropped d) {
                o.put("kind", "dropped");
                o.put("column", d.column());
            } else if (c instanceof ChangeEvent.ColumnChange.Retyped r) {
                o.put("kind", "retyped");
                o.put("column", r.column());
                o.put("from", r.from());
                o.put("to", r.to());
            }
        }
        try {
            return MAPPER.writeValueAsString(root);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a schema change", e);
        }
    }

    /** The schema change of {@code table} at {@code position} that {@code json} describes. */
    public static ChangeEvent.SchemaChange decode(TableId table, SourcePosition position, String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("schema change is not JSON: " + e.getMessage(), e);
        }
        if (root == null || root.path("v").asInt(0) != 1) {
            throw new IllegalArgumentException("schema change of an unknown version: " + json);
        }
        List<ChangeEvent.ColumnChange> changes = new ArrayList<>();
        for (JsonNode c : root.path("changes")) {
            String kind = c.path("kind").asText("");
            changes.add(switch (kind) {
                case "added" -> new ChangeEvent.ColumnChange.Added(text(c, "column"), type(c.path("type")),
                        c.path("value").isNull() ? null : c.path("value").asText());
                case "renamed" -> new ChangeEvent.ColumnChange.Renamed(text(c, "from"), text(c, "to"));
                case "dropped" -> new ChangeEvent.ColumnChange.Dropped(text(c, "column"));
                case "retyped" -> new ChangeEvent.ColumnChange.Retyped(text(c, "column"), text(c, "from"), text(c, "to"));
                default -> throw new IllegalArgumentException("schema change of an unknown kind '" + kind + "'");
            });
        }
        return new ChangeEvent.SchemaChange(table, position, changes, root.path("statement").asText(""));
    }

    private static ColumnType type(JsonNode t) {
        Map<String, String> params = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = t.path("parameters").fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            params.put(e.getKey(), e.getValue().asText());
        }
        return new ColumnType(text(t, "connect"), t.hasNonNull("logical") ? t.get("logical").asText() : null, params);
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("schema change without '" + field + "'");
        }
        return v.asText();
    }
}
