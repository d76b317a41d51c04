package dev.tidemark.jdbc.postgres;

import dev.tidemark.jdbc.ChecksumSql;
import dev.tidemark.jdbc.Database;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.ValueKind;
import dev.tidemark.jdbc.ColumnKind;
import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL's segment checksums in SQL: canonical value text from {@link PostgresCanonicalText}, each row hashed by
 * the first 60 bits of its {@code md5}, or by {@code hashtextextended} when the other side is PostgreSQL too.
 * Stateless and thread-safe.
 */
public final class PostgresChecksums implements ChecksumSql {

    @Override
    public String valueText(String c, ValueKind kind, SourceColumn column) {
        String declared = column.declaredType().toLowerCase(Locale.ROOT);
        return PostgresCanonicalText.of(c, kind, column.kind() == ColumnKind.ZONED, declared.equals("bool") || declared.equals("boolean"));
    }

    @Override
    public String sumOfRowHashes(List<String> valueTexts, Database otherSide) {
        String row = String.join(" || ", valueTexts.stream().map(v -> "COALESCE(length(" + v + ") || ':' || " + v + ", '~')").toList());
        if (otherSide.checksumSql().orElse(null) instanceof PostgresChecksums) {
            return "sum(hashtextextended(" + row + ", 0))";
        }
        return "sum(('x' || substr(md5(" + row + "), 1, 15))::bit(60)::bigint)";
    }
}
