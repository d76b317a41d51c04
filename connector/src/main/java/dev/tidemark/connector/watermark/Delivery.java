package dev.tidemark.connector.watermark;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.RowSchema;
import dev.tidemark.sink.jdbc.SideWrite;
import java.util.List;

/**
 * Where the events of a window go, and the ordering rule that makes the watermark safe: {@link #deliver} returns
 * only once the events are durable at their destination <em>and</em> the control write that follows them is
 * committed. A failure before that leaves the previous control row in place, so the next run repeats the chunk
 * (writes are upserts and deletes by key: repeating is harmless).
 */
public interface Delivery extends AutoCloseable {

    /** Delivers one chunk (possibly empty) and then commits {@code controlWrite}; throws if either failed. */
    void deliver(List<ChangeEvent> events, RowSchema schema, SideWrite controlWrite) throws Exception;

    /** For the run summary: {@code sqlite target}, {@code kafka topic …}. */
    String describe();

    @Override
    void close();
}
