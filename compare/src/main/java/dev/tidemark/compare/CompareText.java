package dev.tidemark.compare;

import static dev.tidemark.compare.CompareReport.display;
import static dev.tidemark.compare.CompareReport.label;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link CompareResult} as the plain-text tables {@code tidemark compare} prints: the runs, both targets against the
 * source, every difference with its cause, then the verdict and any warnings. Columns are padded by code points.
 */
final class CompareText {
    private CompareText() {
    }

    static String render(CompareResult r, Path cwd) {
        StringBuilder b = new StringBuilder();
        b.append("Scenario ").append(r.scenario()).append(": ").append(r.description()).append('\n');
        List<String[]> runRows = new ArrayList<>();
        runRows.add(new String[] {"run", "watermark window", "mode", "rows copied", "CDC events", "changes before the run"});
        for (CompareResult.Run run : r.runs()) {
            runRows.add(new String[] {Integer.toString(run.run()), run.window(), run.mode(), Long.toString(run.rowsCopied()),
                    Long.toString(run.cdcEvents()), run.changeSummary()});
        }
        table(b, runRows, new boolean[] {true, false, false, true, true, false});
        b.append('\n');
        targets(b, r, cwd);
        differences(b, r);
        List<Difference> unexplained = r.unexplained();
        b.append('\n').append(r.cdcEqual() ? "CDC target equals the source." : "CDC target DIFFERS from the source.")
                .append(' ').append(unexplained.isEmpty() ? "Every difference is explained by a step of the scenario."
                        : unexplained.size() + " difference" + (unexplained.size() == 1 ? " is" : "s are") + " UNEXPLAINED.")
                .append('\n');
        for (String w : r.warnings()) {
            b.append("warning: ").append(w).append('\n');
        }
        return b.toString();
    }

    private static void targets(StringBuilder b, CompareResult r, Path cwd) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"target", "file", "rows", "missing", "surplus", "changed",
                "vs source (" + r.cdc().sourceRows() + " rows; by key + row checksum)"});
        for (CompareResult.Target t : List.of(r.cdc(), r.watermark())) {
            String verdict = t.equal() ? "EQUAL" : "DIFFERENT" + (t.targetRows() == t.sourceRows()
                    ? " (the counts match: " + t.targetRows() + " = " + t.sourceRows() + ")" : "");
            rows.add(new String[] {label(t.mode()), display(t.file(), cwd), Long.toString(t.targetRows()),
                    Integer.toString(t.missing().size()), Integer.toString(t.surplus().size()), Integer.toString(t.changed().size()), verdict});
        }
        table(b, rows, new boolean[] {false, false, true, true, true, true, false});
    }

    private static void differences(StringBuilder b, CompareResult r) {
        List<String[]> rows = new ArrayList<>();
        for (CompareResult.Target t : List.of(r.cdc(), r.watermark())) {
            for (Difference d : t.differences()) {
                rows.add(new String[] {label(t.mode()), d.kind().label(), d.key(), d.cause().label(), d.detail()});
            }
        }
        if (!rows.isEmpty()) {
            b.append("\nDifferences, each with its cause:\n");
            rows.add(0, new String[] {"target", "kind", "key", "cause", "explained by"});
            table(b, rows, new boolean[] {false, false, true, false, false});
        }
    }

    /** {@code rows} (the first: the header) as padded columns, {@code right}-aligned where asked. */
    private static void table(StringBuilder b, List<String[]> rows, boolean[] right) {
        int[] width = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].codePointCount(0, row[i].length()));
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder(" ");
            for (int i = 0; i < row.length; i++) {
                String pad = " ".repeat(width[i] - row[i].codePointCount(0, row[i].length()));
                boolean last = i == row.length - 1;
                line.append(' ').append(right[i] ? pad + row[i] : row[i] + (last ? "" : pad)).append(last ? "" : " ");
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
    }
}
