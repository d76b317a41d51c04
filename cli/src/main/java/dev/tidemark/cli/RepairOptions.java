package dev.tidemark.cli;

import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code reconcile}'s repair options: {@code --repair} plans, {@code --apply} applies, {@code --force} lifts the
 * {@code --max-delete-share} limit. {@link #check} names every wrong combination and returns the share as a fraction.
 */
final class RepairOptions {
    @Option(names = "--repair", description = "plan the change events that make the target equal (a dry run unless --apply)")
    boolean repair;

    @Option(names = "--apply", description = "with --repair: apply them through the sink writer, then reconcile again")
    boolean apply;

    @Option(names = "--force", description = "with --repair --apply: delete even more than --max-delete-share of the target")
    boolean force;

    @Option(names = "--max-delete-share", paramLabel = "P", defaultValue = "10%",
            description = "most target rows a repair may delete without --force, as a percentage or fraction (default: ${DEFAULT-VALUE})")
    String maxDeleteShare;

    /** Adds a line to problems for a bad share or combination; the most a repair may delete, between 0 and 1. */
    double check(List<String> problems) {
        double share = parseShare(maxDeleteShare, problems);
        if ((apply || force) && !repair) {
            problems.add((apply ? "--apply" : "--force") + " goes with --repair");
        }
        if (force && !apply) {
            problems.add("--force goes with --repair --apply");
        }
        return share;
    }

    static double parseShare(String text, List<String> problems) {
        try {
            String t = text.trim();
            double v = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1)) / 100 : Double.parseDouble(t);
            if (v < 0 || v > 1) {
                problems.add("Invalid value " + text + " for --max-delete-share: between 0% and 100%");
            }
            return v;
        } catch (NumberFormatException e) {
            problems.add("Invalid value " + text + " for --max-delete-share: a percentage (10%) or a fraction (0.1)");
            return 0;
        }
    }
}
