package dev.tidemark.cli;

/** Process exit codes of every tidemark command. */
final class ExitCodes {
    static final int OK = 0;
    /** reconcile/compare found differences; demo found source and target different */
    static final int DIFFERENT = 1;
    static final int USAGE = 2;
    static final int RUNTIME = 3;

    private ExitCodes() {
    }
}
