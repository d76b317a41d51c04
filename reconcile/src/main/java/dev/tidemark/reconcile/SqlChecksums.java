package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ChecksumSql;
import dev.tidemark.jdbc.Database;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.ValueKind;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Segment checksums computed inside the database, one {@code GROUP BY} query per side for all segments of a
 * bucketing, when both engines have the capability ({@link Database#checksumSql()}: PostgreSQL, MariaDB): only
 * counts and sums cross the network; each engine's {@link ChecksumSql} writes its side's SQL. Each side builds the
 * same canonical row text in SQL — every value as {@code <length>:<text>} (NULL as {@code ~}) so values cannot run
 * together — and hashes it: the first 60 bits of its MD5 ({@code hashtextextended} when both sides are PostgreSQL).
 * Worked example for {@code (id bigint, amount numeric(20,8), happened timestamptz)} on PostgreSQL, segments of
 * 10,000 keys from 1:
 * <pre>
 * SELECT ("id" - 1) / 10000, count(*), sum(('x' || substr(md5(
 *          COALESCE(length(v1) || ':' || v1, '~') || COALESCE(length(v2) || ':' || v2, '~') || …), 1, 15))::bit(60)::bigint)
 *   FROM "public"."items" WHERE "id" >= 1 AND "id" <= 1000000 GROUP BY 1
 *   -- v1 = "id"::text, v2 = rtrim(rtrim("amount"::text, '0'), '.') when it has a fraction,
 *   -- v3 = to_char(u, 'YYYY-MM-DD"T"HH24:MI:SS.US') || 'Z' for u = "happened" AT TIME ZONE 'UTC' in years 1..9999,
 *   --      u::text for ±infinity, ISO signed years ('-0043-…' for 44 BC, '+12345-…') otherwise
 * </pre>
 * and on MariaDB the same text from {@code CAST(… AS CHAR)}, {@code TRIM(TRAILING …)}, {@code DATE_FORMAT(…, '%Y-%m-%dT%H:%i:%s.%f')}
 * and {@code CAST(CONV(SUBSTR(MD5(…), 1, 15), 16, 10) AS UNSIGNED)}. The value text is the canonical text
 * {@link CanonicalValues#ofText} gives in Java (an IT holds them together), lossless, and never NULL for a value,
 * so a NULL can never checksum like a value (not even {@code infinity}).
 *
 * <p>The verdict on a segment whose checksums differ always comes from the row-by-row comparison, which normalises
 * in Java on both sides. A normalisation the two engines happened to render differently would therefore cost time
 * (the segment is compared row by row), never correctness; a lossy one could hide a difference, which is why the text
 * must be lossless. Only columns whose canonical text both engines render faithfully are supported ({@link #supports}).
 */
final class SqlChecksums implements SegmentChecksums {
    private final TableShape shape;
    private final Database source;
    private final Database target;

    SqlChecksums(TableShape shape, Database source, Database target) {
        this.shape = shape;
        this.source = source;
        this.target = target;
    }

    /** Both engines can checksum in SQL, and no compared column is floating point (engines print floats differently). */
    static boolean supports(TableShape shape, Database source, Database target) {
        if (source.checksumSql().isEmpty() || target.checksumSql().isEmpty()) {
            return false;
        }
        return shape.columns().stream().noneMatch(c -> c.kind() == ValueKind.FLOAT);
    }

    @Override
    public String method() {
        return "in-database";
    }

    @Override
    public Checksums compute(TableSide side, Bucketing b, Long lo, Long hi, LongConsumer progress) throws SQLException {
        Checksums out = Checksums.zero(b);
        ChecksumSql e = checksumSql(side);
        String bucket = e.bucket(side.columnsSql().get(shape.keyIndex()[0]), b.lo(), b.width());
        String sql = "SELECT " + bucket + ", count(*), " + sumOfHashes(side, e) + " FROM " + side.tableSql() + side.whereSql(lo == null ? b.lo() : lo, hi == null ? b.hi() : hi)
                + " GROUP BY 1";
        long rows = 0;
        try (Statement s = side.connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                int i = (int) rs.getLong(1);
                out.counts()[i] = rs.getLong(2);
                BigDecimal sum = rs.getBigDecimal(3);
                out.sums()[i] = sum.toBigInteger().longValue(); // the low 64 bits: sums compare modulo 2^64
                rows += out.counts()[i];
            }
        } finally {
            side.finishRead();
        }
        progress.accept(rows);
        return out;
    }

    /** Whether the bucketing's arithmetic fits the engines' 64-bit integers (keys minus the low bound, the width). */
    static boolean fits(Bucketing b) {
        return b.hi() - b.lo() >= 0 && b.width() > 0;
    }

    private static ChecksumSql checksumSql(TableSide side) {
        return side.database.checksumSql().orElseThrow(() -> new IllegalStateException(side.database.name() + " has no checksums in SQL"));
    }

    private String sumOfHashes(TableSide side, ChecksumSql e) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < shape.columns().size(); i++) {
            TableShape.Compared c = shape.columns().get(i);
            SourceColumn col = side.isSource() ? c.sourceColumn() : c.targetColumn();
            values.add(e.valueText(side.columnsSql().get(i), c.kind(), col));
        }
        return e.sumOfRowHashes(values, side.isSource() ? target : source);
    }
}
