package dev.tidemark.connector.debezium;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.event.TableId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Reads a record of the signal table ({@link SnapshotSignals}): the captured tables an {@code execute-snapshot}
 * signal inserted into it asks for (its {@code data-collections}, regular expressions matched against
 * {@code schema.table}); none for every other row (watermarks, other signals, deletes).
 */
final class SnapshotRequests {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SnapshotRequests() {
    }

    static List<TableId> requested(SourceRecord record, Collection<TableId> captured) {
        if (!(record.value() instanceof Struct value) || value.schema().field("after") == null
                || !(value.get("after") instanceof Struct after)) {
            return List.of();
        }
        if (after.schema().field("type") == null || !"execute-snapshot".equals(after.get("type"))
                || after.schema().field("data") == null || after.get("data") == null) {
            return List.of();
        }
        return requested(after.get("data").toString(), captured);
    }

    /** The captured tables a signal's data names (pure). */
    static List<TableId> requested(String data, Collection<TableId> captured) {
        List<TableId> out = new ArrayList<>();
        try {
            for (JsonNode c : JSON.readTree(data).path("data-collections")) {
                Pattern p = Pattern.compile(c.asText());
                for (TableId t : captured) {
                    if (p.matcher(t.schema() + "." + t.table()).matches() && !out.contains(t)) {
                        out.add(t);
                    }
                }
            }
        } catch (IOException | PatternSyntaxException e) {
            return out; // Debezium itself reports a signal it cannot read
        }
        return out;
    }
}
