package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.TopicNames;
import dev.tidemark.event.TableId;
import io.debezium.schema.SchemaTopicNamingStrategy;
import io.debezium.spi.schema.DataCollectionId;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Debezium's topic naming for Tidemark's capture: a table's change events go to the topic {@link TopicNames} gives it
 * (its {@code kafka.topics} entry, else the escaped default), the same name the topics were created with and the sink
 * subscribes to. A table's key and value schemas are named after its default topic ({@link #recordSchemaPrefix}).
 * Everything else (heartbeats, transactions, messages) is named as by Debezium's default strategy.
 * The explicit topics arrive in the connector property {@link #TOPICS_PROPERTY} ({@link TopicNames#encode}).
 */
public final class TidemarkTopicNaming extends SchemaTopicNamingStrategy {
    /** The connector property holding the explicit topics. */
    static final String TOPICS_PROPERTY = "tidemark.topics";

    private final String topicPrefix;
    private final Map<String, String> explicit;

    public TidemarkTopicNaming(Properties props) {
        super(props);
        this.topicPrefix = props.getProperty("topic.prefix");
        this.explicit = TopicNames.decode(props.getProperty(TOPICS_PROPERTY));
    }

    @Override
    public String dataChangeTopic(DataCollectionId id) {
        TableId table = table(id);
        if (table == null) {
            return super.dataChangeTopic(id);
        }
        String named = explicit.get(TopicNames.key(table.schema(), table.table()));
        return named != null ? named : TopicNames.of(topicPrefix, table);
    }

    /**
     * The prefix of a table's key and value schema names ({@code <prefix>.Key}): its default topic name, also when
     * {@code kafka.topics} names another topic, so that a tombstone's key schema names its table (a tombstone has no
     * {@code source} block).
     */
    @Override
    public String recordSchemaPrefix(DataCollectionId id) {
        TableId table = table(id);
        return table == null ? super.recordSchemaPrefix(id) : TopicNames.of(topicPrefix, table);
    }

    private static TableId table(DataCollectionId id) {
        List<String> parts = id.schemaParts();
        if (parts == null || parts.isEmpty()) {
            return null;
        }
        return new TableId(parts.size() > 1 ? parts.get(parts.size() - 2) : "", parts.get(parts.size() - 1));
    }
}
