package dev.tidemark.compare;

import java.util.List;
import java.util.stream.Stream;

/**
 * What one compare found: per run what each mode moved, and per target its differences with their causes.
 *
 * @param scenario  {@code invoices} or {@code random}
 * @param seed      the random scenario's seed, or null
 * @param runs      one entry per watermark run, in order
 * @param cdc       the CDC target against the source
 * @param watermark the watermark target against the source
 * @param description the scenario in one line
 * @param table     the source table both modes captured
 * @param warnings  anything the run noticed on the way (a CDC catch-up that timed out, watermark warnings)
 */
public record CompareResult(String scenario, Long seed, String description, String table, List<Run> runs, Target cdc,
                            Target watermark, List<String> warnings) {
    public CompareResult {
        runs = List.copyOf(runs);
        warnings = List.copyOf(warnings);
    }

    /**
     * One watermark run and the CDC events up to it.
     *
     * @param changes       the steps made to the source before this run, one line each
     * @param changeSummary the steps counted by intent: {@code 2 inserts, 1 update, 1 delete, 1 backdated insert}
     * @param window        the watermark window read, e.g. {@code (2013-12-22T00:00, 2014-01-06T00:00]}
     * @param mode          the watermark run's mode: initial, incremental, unchanged
     * @param rowsCopied    rows the watermark run copied
     * @param cdcEvents     events CDC captured since the previous run (the first: the snapshot; a delete is a delete
     *                      event and a tombstone)
     * @param watermark     the watermark stored after the run
     */
    public record Run(int run, List<String> changes, String changeSummary, String window, String mode, long rowsCopied, long cdcEvents, String watermark) {
        public Run {
            changes = List.copyOf(changes);
        }
    }

    /**
     * One target compared with the source by key and checksum; each list holds differences of its own kind only.
     *
     * @param mode   {@code cdc} or {@code watermark}
     * @param file   the SQLite file
     */
    public record Target(String mode, String file, long sourceRows, long targetRows, List<Difference> missing,
                         List<Difference> surplus, List<Difference> changed) {
        public Target {
            missing = ofKind(mode, missing, Difference.Kind.MISSING);
            surplus = ofKind(mode, surplus, Difference.Kind.SURPLUS);
            changed = ofKind(mode, changed, Difference.Kind.CHANGED);
        }

        private static List<Difference> ofKind(String mode, List<Difference> list, Difference.Kind kind) {
            for (Difference d : list) {
                if (d.kind() != kind) {
                    throw new IllegalArgumentException("a " + d.kind().label() + " difference (key " + d.key() + ") among the "
                            + kind.label() + " keys of target " + mode);
                }
            }
            return List.copyOf(list);
        }

        /** Equal when no key differs: equal counts alone prove nothing. */
        public boolean equal() {
            return differences().isEmpty();
        }

        public List<Difference> differences() {
            return Stream.of(missing, surplus, changed).flatMap(List::stream).toList();
        }
    }

    /** True when the CDC target equals the source: the exit status of compare. */
    public boolean cdcEqual() {
        return cdc.equal();
    }

    /** Differences in either target that no step of the scenario explains. */
    public List<Difference> unexplained() {
        return Stream.concat(cdc.differences().stream(), watermark.differences().stream())
                .filter(d -> d.cause() == Cause.UNEXPLAINED).toList();
    }
}
