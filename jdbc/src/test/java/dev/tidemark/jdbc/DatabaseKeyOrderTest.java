package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DatabaseKeyOrderTest {
    private static final Database SQLITE = Databases.forUrl("jdbc:sqlite:x.db");
    private static final Database POSTGRES = Databases.forUrl("jdbc:postgresql://h/db");
    private static final Database MARIADB = Databases.forUrl("jdbc:mariadb://h/db");
    private static final Database OTHER = Databases.forUrl("jdbc:h2:mem:x");

    @Test
    void textSortsByCodePointOnEveryEngine() {
        assertThat(POSTGRES.orderTerm("\"k\"", ValueKind.TEXT)).isEqualTo("CAST(\"k\" AS text) COLLATE \"C\"");
        assertThat(MARIADB.orderTerm("`k`", ValueKind.TEXT)).isEqualTo("CAST(CONVERT(`k` USING utf8mb4) AS BINARY)");
        assertThat(SQLITE.orderTerm("\"k\"", ValueKind.TEXT)).isEqualTo("\"k\" COLLATE BINARY");
        assertThat(OTHER.orderTerm("\"k\"", ValueKind.TEXT)).isEqualTo("\"k\"");
    }

    @Test
    void sqliteDecimalsKeptAsTextSortAsNumbers() {
        assertThat(SQLITE.orderTerm("\"d\"", ValueKind.DECIMAL)).isEqualTo("CAST(\"d\" AS NUMERIC)");
        assertThat(POSTGRES.orderTerm("\"d\"", ValueKind.DECIMAL)).isEqualTo("\"d\"");
        assertThat(MARIADB.orderTerm("`i`", ValueKind.INTEGER)).isEqualTo("`i`");
    }

    @Test
    void sqliteComparesDecimalKeysInCanonicalForm() {
        assertThat(SQLITE.keyTerm("\"d\"", ValueKind.DECIMAL))
                .isEqualTo("(CASE WHEN instr(\"d\", '.') > 0 THEN rtrim(rtrim(\"d\", '0'), '.') ELSE \"d\" END)");
        assertThat(SQLITE.keyTerm("\"i\"", ValueKind.INTEGER)).isEqualTo("\"i\"");
        assertThat(POSTGRES.keyTerm("\"d\"", ValueKind.DECIMAL)).isEqualTo("\"d\"");
    }

    @Test
    void postgresCastsTextKeysOfOtherTypes() {
        assertThat(POSTGRES.keyParameter(ValueKind.TEXT, "uuid")).isEqualTo("CAST(? AS \"uuid\")");
        assertThat(POSTGRES.keyParameter(ValueKind.TEXT, "varchar")).isEqualTo("?");
        assertThat(POSTGRES.keyParameter(ValueKind.INTEGER, "int8")).isEqualTo("?");
        assertThat(MARIADB.keyParameter(ValueKind.TEXT, "uuid")).isEqualTo("?");
    }

    @Test
    void zonedKeysAreUtcWallClockExceptOnPostgres() {
        java.time.OffsetDateTime t = java.time.OffsetDateTime.parse("2024-05-01T12:00:00+02:00");
        assertThat(POSTGRES.zonedKey(t)).isEqualTo(t);
        assertThat(MARIADB.zonedKey(t)).isEqualTo(java.time.LocalDateTime.parse("2024-05-01T10:00:00"));
        assertThat(OTHER.zonedKey(t)).isEqualTo(java.time.LocalDateTime.parse("2024-05-01T10:00:00"));
    }
}
