package dev.tidemark.sink.kafka;

import dev.tidemark.jdbc.UsageException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the sink starts reading when its partitions are assigned. The default, {@link Stored}, resumes from the
 * offsets committed in the target (or the beginning of the topic for a new target); the others rewind once, on the
 * first assignment, and from then on the target's offsets advance as usual. {@code toString()} is the form a user
 * writes after {@code --replay-from} (messages quote it), never a record's internal shape.
 */
public sealed interface ReplayFrom {

    /** Resume from the offsets stored in the target. */
    record Stored() implements ReplayFrom {
        @Override
        public String toString() {
            return "the stored offsets";
        }
    }

    /** Every partition from its earliest retained offset. */
    record Earliest() implements ReplayFrom {
        @Override
        public String toString() {
            return "earliest";
        }
    }

    /**
     * Explicit offsets: keys are {@code topic:partition} or just {@code partition} (then for every topic).
     */
    record Offsets(Map<String, Long> offsets) implements ReplayFrom {
        public Offsets {
            offsets = Map.copyOf(offsets);
        }

        /** As given on the command line: {@code topic:partition:offset,…}. */
        @Override
        public String toString() {
            return offsets.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> e.getKey() + ":" + e.getValue())
                    .collect(java.util.stream.Collectors.joining(","));
        }
    }

    /** The first offset of each partition whose record timestamp is at or after the instant. */
    record Since(Instant timestamp) implements ReplayFrom {
        @Override
        public String toString() {
            return timestamp.toString();
        }
    }

    /**
     * Parses {@code earliest}, {@code <partition:offset,…>} (optionally {@code topic:partition:offset}) or an ISO-8601
     * instant.
     *
     * @throws UsageException with a one-line reason naming the bad part
     */
    static ReplayFrom parse(String text) {
        String s = text.trim();
        if (s.isEmpty() || s.equals("stored")) {
            return new Stored();
        }
        if (s.equals("earliest") || s.equals("beginning")) {
            return new Earliest();
        }
        if (Character.isDigit(s.charAt(0)) && s.length() >= 10 && s.charAt(4) == '-') {
            try {
                return new Since(Instant.parse(s));
            } catch (DateTimeParseException e) {
                throw new UsageException("--replay-from: '" + s + "' is not an ISO-8601 instant such as 2026-11-29T10:00:00Z");
            }
        }
        Map<String, Long> offsets = new LinkedHashMap<>();
        for (String part : s.split(",")) {
            String p = part.trim();
            int colon = p.lastIndexOf(':');
            if (colon <= 0) {
                throw new UsageException("--replay-from: '" + p + "' is not partition:offset or topic:partition:offset");
            }
            String where = p.substring(0, colon);
            try {
                long offset = Long.parseLong(p.substring(colon + 1));
                String partition = where.substring(where.lastIndexOf(':') + 1);
                Integer.parseInt(partition);
                if (offset < 0) {
                    throw new NumberFormatException();
                }
                offsets.put(where, offset);
            } catch (NumberFormatException e) {
                throw new UsageException("--replay-from: '" + p + "' needs a numeric partition and a non-negative offset");
            }
        }
        return new Offsets(offsets);
    }
}
