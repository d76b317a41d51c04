package dev.tidemark.sink.jdbc;

/**
 * A batch's offsets were not written because the stored offset of one of its partitions is no longer the offset this
 * sink last read or wrote for it: another member of the consumer group took the partition over and moved it (this
 * member lost it, for example by polling too late). The whole transaction was rolled back, rows included; the
 * caller re-reads the stored offsets and seeks to them. Never a poison event: the batch is not at fault.
 */
public final class OffsetsFencedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final int partition;

    public OffsetsFencedException(String pipeline, String topic, int partition, Long expected, Long found) {
        super("topic " + topic + " partition " + partition + ": stored offset of pipeline " + pipeline + " is "
                + (found == null ? "absent" : found) + ", not " + (expected == null ? "absent" : expected)
                + " as this member last read or wrote: another member took the partition over; the batch was rolled back"
                + " (nothing of it applied) and this member re-reads the stored offsets");
        this.topic = topic;
        this.partition = partition;
    }

    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }
}
