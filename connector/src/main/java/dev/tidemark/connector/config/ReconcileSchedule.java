package dev.tidemark.connector.config;

import dev.tidemark.event.TableId;
import java.time.Duration;
import java.util.List;

/**
 * The {@code reconcile:} section of a pipeline file: the sidecar ({@code run}, {@code sink}) compares the pipeline's
 * tables with the target on a fixed period and records each result in the target. Absent: {@link #OFF}.
 *
 * @param every          the period between run starts; {@link Duration#ZERO} only in {@link #OFF}
 * @param tables         the tables compared, in order (default: all of {@code source.tables})
 * @param settle         the re-check wait of each table's comparison (a difference CDC heals within it is not counted)
 * @param repair         what a run does with the differences it finds
 * @param maxDeleteShare the most of a target table's rows an automatic repair may delete (0–1); more is refused
 * @param budget         the time one run may take: tables not started within it are left to the next run; at most
 *                       {@code every}
 */
public record ReconcileSchedule(Duration every, List<TableId> tables, Duration settle, Repair repair, double maxDeleteShare,
                                Duration budget) {
    public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(5);
    public static final double DEFAULT_MAX_DELETE_SHARE = 0.10;
    /** No scheduled reconcile. */
    public static final ReconcileSchedule OFF = new ReconcileSchedule(Duration.ZERO, List.of(), DEFAULT_SETTLE, Repair.REPORT,
            DEFAULT_MAX_DELETE_SHARE, Duration.ZERO);

    public ReconcileSchedule {
        tables = List.copyOf(tables);
    }

    public boolean enabled() {
        return !every.isZero();
    }

    /** What a scheduled run does with the differences it finds. */
    public enum Repair {
        /** Record the counts only. */
        OFF,
        /** Record the counts and log the repair a {@code reconcile --repair --apply} would make; change nothing. */
        REPORT,
        /** Repair through the sink writer, with the delete guard and the source re-check of {@code reconcile --repair --apply}. */
        AUTO
    }
}
