package dev.tidemark.connector.debezium;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.event.TableId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One schema-change message of {@link DdlTrigger}: the pipeline it is for, the command tag, and the captured table's
 * name and columns before and after the command ({@code after} is empty when the table is gone). Pure parsing.
 */
record DdlMessage(String pipeline, String tag, Shape before, Optional<Shape> after) {

    /** A table's name and columns at one moment. */
    record Shape(long oid, TableId table, List<Col> columns) {
        Optional<Col> byAttnum(int attnum) {
            return columns.stream().filter(c -> c.attnum() == attnum).findFirst();
        }
    }

    /**
     * One column: attribute number, name, type as {@code format_type} spells it, {@code pg_type.typname} and type
     * modifier, not null, identity, generated, default expression (or null), whether that default is a constant, and
     * for a column just added with a constant default the value existing rows got (as text; null otherwise).
     */
    record Col(int attnum, String name, String type, String typname, int typmod, boolean notNull, boolean identity,
               boolean generated, String defaultExpr, boolean constant, String value) {
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Parses the message's content; an unreadable one is an {@link IllegalArgumentException}. */
    static DdlMessage parse(byte[] content) {
        JsonNode root;
        try {
            root = MAPPER.readTree(content);
        } catch (IOException e) {
            throw new IllegalArgumentException("schema-change message is not JSON: " + e.getMessage(), e);
        }
        if (root == null || root.path("v").asInt(0) != 1) {
            throw new IllegalArgumentException("schema-change message of an unknown version");
        }
        JsonNode after = root.get("after");
        return new DdlMessage(root.path("pipeline").asText(""), root.path("tag").asText(""), shape(root.path("before")),
                after == null || after.isNull() ? Optional.empty() : Optional.of(shape(after)));
    }

    private static Shape shape(JsonNode s) {
        List<Col> cols = new ArrayList<>();
        for (JsonNode c : s.path("columns")) {
            cols.add(new Col(c.path("attnum").asInt(), c.path("name").asText(), c.path("type").asText(), c.path("typname").asText(),
                    c.path("typmod").asInt(-1), c.path("notnull").asBoolean(), c.path("identity").asBoolean(),
                    c.path("generated").asBoolean(), text(c, "default"), c.path("constant").asBoolean(), text(c, "value")));
        }
        return new Shape(s.path("oid").asLong(), new TableId(s.path("schema").asText(""), s.path("table").asText("")), List.copyOf(cols));
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
