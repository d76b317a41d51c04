package dev.tidemark.sink.kafka;

import dev.tidemark.jdbc.Dialect;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.PartitionOffset;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.List;

/**
 * Records the retention gaps the user accepted ({@link StartPositions.AcceptedGap}) in the target: one row each in
 * {@code tidemark_retention_gaps} (pipeline, topic, partition, from and to offset, when), written in the same
 * transaction that moves the partition's stored offset to where it now starts. The table is created (if absent) in a
 * transaction of its own first, as DDL commits implicitly on some engines.
 */
final class RetentionGaps {
    static final String TABLE = "tidemark_retention_gaps";

    private RetentionGaps() {
    }

    static void record(JdbcChangeSink sink, String pipeline, List<StartPositions.AcceptedGap> gaps) {
        if (gaps.isEmpty()) {
            return;
        }
        sink.apply(List.of(), List.of(), (connection, dialect) -> {
            try (var s = connection.createStatement()) {
                s.execute(createTable(dialect));
            }
        });
        List<PartitionOffset> moved = gaps.stream()
                .map(g -> new PartitionOffset(g.partition().topic(), g.partition().partition(), g.to())).toList();
        String now = Instant.now().toString();
        sink.apply(List.of(), moved, (connection, dialect) -> {
            try (PreparedStatement ps = connection.prepareStatement("INSERT INTO " + dialect.quote(TABLE) + " ("
                    + String.join(", ", List.of(dialect.quote("pipeline"), dialect.quote("topic"), dialect.quote("partition"),
                    dialect.quote("from_offset"), dialect.quote("to_offset"), dialect.quote("recorded_at"))) + ") VALUES (?, ?, ?, ?, ?, ?)")) {
                for (StartPositions.AcceptedGap g : gaps) {
                    ps.setString(1, pipeline);
                    ps.setString(2, g.partition().topic());
                    ps.setLong(3, g.partition().partition());
                    ps.setLong(4, g.from());
                    ps.setLong(5, g.to());
                    ps.setString(6, now);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        });
    }

    private static String createTable(Dialect d) {
        return "CREATE TABLE IF NOT EXISTS " + d.quote(TABLE) + " (" + d.quote("pipeline") + " " + d.textType() + " NOT NULL, "
                + d.quote("topic") + " " + d.textType() + " NOT NULL, " + d.quote("partition") + " " + d.bigintType() + " NOT NULL, "
                + d.quote("from_offset") + " " + d.bigintType() + " NOT NULL, " + d.quote("to_offset") + " " + d.bigintType()
                + " NOT NULL, " + d.quote("recorded_at") + " " + d.textType() + " NOT NULL)";
    }
}
