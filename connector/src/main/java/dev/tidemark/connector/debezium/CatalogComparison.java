package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Schema changes without an event trigger: the columns of each table's change events (its relation as pgoutput last
 * described it) are compared with the previous ones; when they differ the catalog is asked. Columns that appeared
 * while others disappeared cannot be told apart from a rename, and a column that appeared with a default got values
 * in every existing row that no row event carried: both stop capture with one line. A column that appeared without a
 * default, or one that disappeared, the sink follows from the rows. The first events of a table after a start are the
 * baseline (a change made while capture was stopped is not seen here).
 */
final class CatalogComparison {
    private final PipelineConfig config;
    private final String configLabel;
    private final SourceSlots slots;
    private final Map<String, Schema> lastSchema = new HashMap<>();
    private final Map<String, List<String>> lastColumns = new HashMap<>();

    CatalogComparison(PipelineConfig config, String configLabel, SourceSlots slots) {
        this.config = config;
        this.configLabel = configLabel;
        this.slots = slots;
    }

    /** The stop line for {@code record}'s columns, or empty when capture may go on. */
    Optional<String> check(SourceRecord record) {
        Schema value = record.valueSchema();
        if (value == null || value.field("after") == null || record.topic() == null) {
            return Optional.empty();
        }
        if (lastSchema.get(record.topic()) == value) {
            return Optional.empty();
        }
        List<String> now = new ArrayList<>();
        for (Field f : value.field("after").schema().fields()) {
            now.add(f.name());
        }
        lastSchema.put(record.topic(), value);
        List<String> before = lastColumns.put(record.topic(), now);
        if (before == null || before.equals(now)) {
            return Optional.empty();
        }
        Set<String> added = new LinkedHashSet<>(now);
        added.removeAll(before);
        Set<String> removed = new LinkedHashSet<>(before);
        removed.removeAll(now);
        if (added.isEmpty()) {
            return Optional.empty();
        }
        TableId table = tableOf(record.topic());
        String recovery = "; nothing from that change on was sent. Copy the table again: `tidemark snapshot --config "
                + (configLabel == null ? "<path>" : configLabel) + " --table " + table + "` (an event trigger, which needs a superuser "
                + "as source.user, would carry such changes)";
        if (!removed.isEmpty()) {
            return Optional.of("capture stopped: table " + table + ": columns " + removed + " disappeared and " + added
                    + " appeared; without an event trigger a rename cannot be told from a drop and an add" + recovery);
        }
        List<String> withDefault;
        try {
            withDefault = withDefault(table, added);
        } catch (SQLException e) {
            return Optional.of("capture stopped: table " + table + ": columns " + added + " appeared and the catalog could not be read "
                    + "to tell whether they have defaults (" + e.getMessage() + ")" + recovery);
        }
        if (!withDefault.isEmpty()) {
            return Optional.of("capture stopped: table " + table + ": columns " + withDefault + " were added with a default, which "
                    + "every existing row got without a row event" + recovery);
        }
        return Optional.empty();
    }

    private TableId tableOf(String topic) {
        for (TableId t : config.source().tables()) {
            if (config.topicFor(t).equals(topic)) {
                return t;
            }
        }
        return TableId.parse(topic);
    }

    private List<String> withDefault(TableId table, Set<String> columns) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = slots.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT a.attname FROM pg_attribute a JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
                        + "WHERE a.attrelid = to_regclass(?) AND a.attname = ANY (?) AND NOT a.attisdropped ORDER BY a.attnum")) {
            ps.setString(1, DdlTrigger.q(table.schema()) + "." + DdlTrigger.q(table.table()));
            ps.setArray(2, c.createArrayOf("text", columns.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
