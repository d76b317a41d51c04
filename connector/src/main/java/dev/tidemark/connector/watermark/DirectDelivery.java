package dev.tidemark.connector.watermark;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.RowSchema;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.SideWrite;
import java.util.List;

/**
 * Straight into the sink writer, without Kafka: each chunk is one {@link JdbcChangeSink#apply} transaction on the
 * target, with the control-table write as its {@link SideWrite}, so rows and watermark commit together or not at
 * all. The sink's position guard keeps a re-read (overlap, retry) from moving a row backwards.
 */
public final class DirectDelivery implements Delivery {
    private final JdbcChangeSink sink;

    public DirectDelivery(JdbcChangeSink sink) {
        this.sink = sink;
    }

    @Override
    public void deliver(List<ChangeEvent> events, RowSchema schema, SideWrite controlWrite) {
        sink.apply(events, List.of(), controlWrite);
    }

    @Override
    public String describe() {
        return sink.dialect().name() + " target";
    }

    @Override
    public void close() {
        sink.close();
    }
}
