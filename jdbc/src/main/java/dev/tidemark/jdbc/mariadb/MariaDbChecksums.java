package dev.tidemark.jdbc.mariadb;

import dev.tidemark.jdbc.ChecksumSql;
import dev.tidemark.jdbc.Database;
import dev.tidemark.jdbc.SourceColumn;
import dev.tidemark.jdbc.ValueKind;
import java.util.List;

/**
 * MariaDB's segment checksums in SQL: canonical value text from {@link MariaDbCanonicalText}, each row hashed by the
 * first 60 bits of its {@code MD5}, whatever the other side. Stateless and thread-safe.
 */
public final class MariaDbChecksums implements ChecksumSql {

    /** With {@code DIV}: MariaDB's {@code /} yields a decimal. */
    @Override
    public String bucket(String keySql, long lo, long width) {
        return "(" + keySql + " - (" + lo + ")) DIV " + width;
    }

    @Override
    public String valueText(String c, ValueKind kind, SourceColumn column) {
        return MariaDbCanonicalText.of(c, kind);
    }

    @Override
    public String sumOfRowHashes(List<String> valueTexts, Database otherSide) {
        String row = "CONVERT(CONCAT(" + String.join(", ", valueTexts.stream()
                .map(v -> "COALESCE(CONCAT(CHAR_LENGTH(" + v + "), ':', " + v + "), '~')").toList()) + ") USING utf8mb4)";
        return "SUM(CAST(CONV(SUBSTR(MD5(" + row + "), 1, 15), 16, 10) AS UNSIGNED))";
    }
}
