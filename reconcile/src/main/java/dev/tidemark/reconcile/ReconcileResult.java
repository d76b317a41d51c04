package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The outcome of one {@link Reconciler#reconcile}: the keys in each class of difference, after the re-check.
 *
 * <p>Keys are given as {@link RowKey}s: the canonical text of each key column's value in key order (see
 * {@link CanonicalValues}: {@code 42}, {@code 12.5}, {@code 2026-01-02T03:04:05.000007Z}, {@code abc}); the
 * {@code missing()}, {@code surplus()} and {@code changed()} views render them as one string each (values joined
 * with {@code ","}, as {@link ComparisonResult} does). Keys are sorted in key order within each class.
 *
 * @param table            the source table, {@code schema.table}
 * @param targetTable      the target table
 * @param keyColumns       the key columns compared by
 * @param sourceRows       rows in the source table when it was scanned
 * @param targetRows       live rows in the target table when it was scanned (soft-deleted rows do not count)
 * @param missingKeys      keys in the source and not in the target (at most the request's key limit)
 * @param surplusKeys      keys in the target and not in the source
 * @param changedKeys      keys in both whose rows differ
 * @param missingCount     number of missing keys (may exceed {@code missingKeys.size()}, see {@link #complete()})
 * @param surplusCount     number of surplus keys
 * @param changedCount     number of changed keys
 * @param sourcePosition   the source position the report holds at: {@code lsn:0/16B3748} on PostgreSQL (taken when
 *                         the differences were re-checked), otherwise {@code time:} and the time
 * @param heldAt           when the differences were re-checked (the time the report holds at)
 * @param startedAt        when the scan started
 * @param rechecked        keys that were found different by the scan and re-checked after the settle interval
 * @param settledAway      of those, how many were equal on the re-check (changes that were still on their way)
 * @param method           how segments were checksummed: {@code in-database} or {@code streamed} ({@code merged}
 *                         when the key is not an integer and both tables were merged in key order)
 * @param stats            how much work the comparison took
 * @param startPosition    the source position when the scan started ({@code lsn:…} on PostgreSQL, else
 *                         {@code time:…}); the comparison covers the changes up to about here
 * @param keyKinds         the kind of each key column, in key order (JSON keeps integer keys as numbers); empty when
 *                         not known (keys are then given as text)
 * @param changedRows      for each listed changed key, in the order of {@code changedKeys}, the columns that differ
 *                         with both values as the re-check read them
 */
public record ReconcileResult(String table, String targetTable, List<String> keyColumns, long sourceRows, long targetRows,
                              List<RowKey> missingKeys, List<RowKey> surplusKeys, List<RowKey> changedKeys,
                              long missingCount, long surplusCount, long changedCount, String sourcePosition,
                              Instant heldAt, Instant startedAt, int rechecked, int settledAway, String method, Stats stats,
                              String startPosition, List<ValueKind> keyKinds, List<ChangedRow> changedRows) {
    public ReconcileResult {
        keyKinds = keyKinds == null ? List.of() : List.copyOf(keyKinds);
        changedRows = changedRows == null ? List.of() : List.copyOf(changedRows);
        keyColumns = List.copyOf(keyColumns);
        missingKeys = List.copyOf(missingKeys);
        surplusKeys = List.copyOf(surplusKeys);
        changedKeys = List.copyOf(changedKeys);
        if (startPosition == null) {
            startPosition = "time:" + startedAt;
        }
    }

    /** A result without key kinds or changed columns. */
    public ReconcileResult(String table, String targetTable, List<String> keyColumns, long sourceRows, long targetRows,
                           List<RowKey> missingKeys, List<RowKey> surplusKeys, List<RowKey> changedKeys,
                           long missingCount, long surplusCount, long changedCount, String sourcePosition,
                           Instant heldAt, Instant startedAt, int rechecked, int settledAway, String method, Stats stats,
                           String startPosition) {
        this(table, targetTable, keyColumns, sourceRows, targetRows, missingKeys, surplusKeys, changedKeys, missingCount, surplusCount,
                changedCount, sourcePosition, heldAt, startedAt, rechecked, settledAway, method, stats, startPosition, null, null);
    }

    /** A result without a recorded start position (it becomes the start time). */
    public ReconcileResult(String table, String targetTable, List<String> keyColumns, long sourceRows, long targetRows,
                           List<RowKey> missingKeys, List<RowKey> surplusKeys, List<RowKey> changedKeys,
                           long missingCount, long surplusCount, long changedCount, String sourcePosition,
                           Instant heldAt, Instant startedAt, int rechecked, int settledAway, String method, Stats stats) {
        this(table, targetTable, keyColumns, sourceRows, targetRows, missingKeys, surplusKeys, changedKeys, missingCount, surplusCount,
                changedCount, sourcePosition, heldAt, startedAt, rechecked, settledAway, method, stats, null);
    }

    /** Missing keys rendered as strings (values joined with {@code ","}). */
    public List<String> missing() {
        return missingKeys.stream().map(RowKey::toString).toList();
    }

    /** Surplus keys rendered as strings. */
    public List<String> surplus() {
        return surplusKeys.stream().map(RowKey::toString).toList();
    }

    /** Changed keys rendered as strings. */
    public List<String> changed() {
        return changedKeys.stream().map(RowKey::toString).toList();
    }

    /** True when no key is missing, surplus or changed. Counts alone never decide this. */
    public boolean equal() {
        return missingCount == 0 && surplusCount == 0 && changedCount == 0;
    }

    /** False when a class had more keys than the request's key limit: only the first ones are listed and re-checked. */
    public boolean complete() {
        return missingCount == missingKeys.size() && surplusCount == surplusKeys.size() && changedCount == changedKeys.size();
    }

    /** The same outcome in the {@link ComparisonResult} shape that {@code compare} reports with (keys as strings). */
    public ComparisonResult toComparisonResult() {
        return new ComparisonResult(table, sourceRows, targetRows, missing(), surplus(), changed());
    }

    /**
     * Work done: segments checksummed on each side, segments bisected, segments compared row by row, rows read in
     * row comparisons, and wall time.
     */
    public record Stats(long segments, long bisected, long fetchedSegments, long fetchedRows, Duration elapsed) {
    }
}
