package dev.tidemark.connector.watermark;

import dev.tidemark.jdbc.UsageException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Which column(s) a table is polled by.
 * <ul>
 *   <li>{@link Timestamp}: a last-modified timestamp (or date) maintained on every insert and update;</li>
 *   <li>{@link Id}: an ever-increasing integer (inserts only: updates are not seen);</li>
 *   <li>{@link TimestampId}: a timestamp with an ever-increasing id as tie-break, so rows that share the boundary
 *       timestamp and arrive after a run are still picked up by the next one.</li>
 * </ul>
 */
public sealed interface Cursor {

    /** The cursor's columns, primary first. */
    List<String> columns();

    /** The kind's name as written in settings and the control table. */
    String kind();

    /** The column whose value orders windows (the timestamp or the id). */
    default String primaryColumn() {
        return columns().get(0);
    }

    /** A cursor of one column: its {@link #columns()} is that column alone. */
    sealed interface SingleColumn extends Cursor permits Timestamp, Id {
        String column();

        @Override
        default List<String> columns() {
            return List.of(column());
        }
    }

    record Timestamp(String column) implements SingleColumn {
        public Timestamp {
            Objects.requireNonNull(column, "column");
        }

        @Override
        public String kind() {
            return "timestamp";
        }
    }

    record Id(String column) implements SingleColumn {
        public Id {
            Objects.requireNonNull(column, "column");
        }

        @Override
        public String kind() {
            return "id";
        }
    }

    record TimestampId(String timestampColumn, String idColumn) implements Cursor {
        public TimestampId {
            Objects.requireNonNull(timestampColumn, "timestampColumn");
            Objects.requireNonNull(idColumn, "idColumn");
        }

        @Override
        public List<String> columns() {
            return List.of(timestampColumn, idColumn);
        }

        @Override
        public String kind() {
            return "timestamp+id";
        }
    }

    /**
     * Builds a cursor from a kind name ({@code timestamp}, {@code id}, {@code timestamp+id}; null = decide later from
     * the column count and type) and its columns.
     */
    static Cursor of(String kind, List<String> columns) {
        if (columns.isEmpty() || columns.size() > 2) {
            throw new UsageException("a cursor is one column (timestamp or id) or two (timestamp, id), not " + columns);
        }
        String k = kind == null ? (columns.size() == 2 ? "timestamp+id" : "timestamp") : kind.toLowerCase(Locale.ROOT);
        return switch (k) {
            case "timestamp" -> {
                requireCount(k, columns, 1);
                yield new Timestamp(columns.get(0));
            }
            case "id" -> {
                requireCount(k, columns, 1);
                yield new Id(columns.get(0));
            }
            case "timestamp+id" -> {
                requireCount(k, columns, 2);
                yield new TimestampId(columns.get(0), columns.get(1));
            }
            default -> throw new UsageException("unknown cursor kind '" + kind + "' (expected timestamp, id or timestamp+id)");
        };
    }

    private static void requireCount(String kind, List<String> columns, int n) {
        if (columns.size() != n) {
            throw new UsageException("a " + kind + " cursor has " + n + " column" + (n == 1 ? "" : "s") + ", not " + columns);
        }
    }
}
