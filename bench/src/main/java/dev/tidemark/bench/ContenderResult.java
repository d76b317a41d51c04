package dev.tidemark.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * The end of a sink contender's child JVM: the target check ({@code count(*)} and {@code sum(id)} of {@code items}
 * against the rows the workload left live) and the one {@code RESULT k=v;…} line the parent reads. Nanosecond
 * totals of -1 mean "not timed apart".
 */
final class ContenderResult {
    private ContenderResult() {
    }

    /** Prints the result line of a finished run. */
    static void print(ChildOptions o, long total, ContenderProgress progress, MemoryPeaks memory, long decodeNanos,
                      long applyNanos) throws SQLException {
        System.out.println("RESULT contender=" + o.contender().id + ";events=" + total
                + ";seconds=" + fmt(progress.seconds()) + ";eps=" + fmt(progress.eventsPerSecond())
                + ";wall=" + fmt(progress.wallSeconds()) + ";heap=" + memory.peakHeapBytes()
                + ";rss=" + MemoryPeaks.peakRssBytes() + ";decode=" + seconds(decodeNanos) + ";apply=" + seconds(applyNanos)
                + ";check=" + check(o));
    }

    /** Row count and id sum in the target against what the workload left live; "n/a" for a contender that writes nothing. */
    static String check(ChildOptions o) throws SQLException {
        if (o.contender().target == Contender.Target.NONE) {
            return "n/a";
        }
        try (Connection c = DriverManager.getConnection(o.url(), o.jdbcProperties())) {
            long[] got = countAndSum(c);
            boolean ok = got[0] == o.expectRows() && got[1] == o.expectSum();
            return (ok ? "ok " : "MISMATCH ") + got[0] + " rows (expected " + o.expectRows() + "), sum(id) " + got[1]
                    + (ok ? "" : " (expected " + o.expectSum() + ")");
        }
    }

    /** {@code count(*)} and {@code sum(id)} of {@code items}. */
    static long[] countAndSum(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*), coalesce(sum(id), 0) FROM items")) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    private static String seconds(long nanos) {
        return fmt(nanos < 0 ? -1 : nanos / 1e9);
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }
}
