package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DatabaseCapabilitiesTest {
    private static final Database SQLITE = Databases.forUrl("jdbc:sqlite:x.db");
    private static final Database POSTGRES = Databases.forUrl("jdbc:postgresql://h/db");
    private static final Database MARIADB = Databases.forUrl("jdbc:mariadb://h/db");
    private static final Database OTHER = Databases.forUrl("jdbc:h2:mem:x");

    @Test
    void onlyPostgresWritesWholeBatchesInOneStatement() {
        assertThat(POSTGRES.target().orElseThrow().setWrites()).isPresent();
        assertThat(SQLITE.target().orElseThrow().setWrites()).isEmpty();
        assertThat(MARIADB.target().orElseThrow().setWrites()).isEmpty();
    }

    @Test
    void sqliteNeedsNoWideningWhereServersAlterTheColumn() {
        assertThat(SQLITE.target().orElseThrow().alterColumnType("t", "c", "TEXT")).isEmpty();
        assertThat(POSTGRES.target().orElseThrow().alterColumnType("t", "c", "BIGINT"))
                .contains("ALTER TABLE \"t\" ALTER COLUMN \"c\" TYPE BIGINT");
        assertThat(MARIADB.target().orElseThrow().alterColumnType("t", "c", "BIGINT"))
                .contains("ALTER TABLE `t` MODIFY COLUMN `c` BIGINT");
    }

    @Test
    void onlyPostgresAsksForMissingPrivileges() {
        assertThat(POSTGRES.target().orElseThrow().missingPrivilegesQuery()).isPresent();
        assertThat(SQLITE.target().orElseThrow().missingPrivilegesQuery()).isEmpty();
        assertThat(MARIADB.target().orElseThrow().missingPrivilegesQuery()).isEmpty();
    }

    @Test
    void onlyMariaDbNeedsATableForSelectingConstants() {
        assertThat(MARIADB.target().orElseThrow().constantsFrom()).isEqualTo(" FROM DUAL");
        assertThat(POSTGRES.target().orElseThrow().constantsFrom()).isEmpty();
        assertThat(SQLITE.target().orElseThrow().constantsFrom()).isEmpty();
    }

    @Test
    void checksumsInTheDatabaseOnServersOnly() {
        assertThat(POSTGRES.checksumSql()).isPresent();
        assertThat(MARIADB.checksumSql()).isPresent();
        assertThat(SQLITE.checksumSql()).isEmpty();
        assertThat(OTHER.checksumSql()).isEmpty();
    }

    @Test
    void checksumSqlHashesWithTheCheaperFunctionOnlyWhenBothSidesArePostgres() {
        ChecksumSql pg = POSTGRES.checksumSql().orElseThrow();
        assertThat(pg.sumOfRowHashes(List.of("v"), POSTGRES)).isEqualTo("sum(hashtextextended(COALESCE(length(v) || ':' || v, '~'), 0))");
        assertThat(pg.sumOfRowHashes(List.of("v"), MARIADB)).startsWith("sum(('x' || substr(md5(");
        assertThat(MARIADB.checksumSql().orElseThrow().sumOfRowHashes(List.of("v"), POSTGRES))
                .isEqualTo("SUM(CAST(CONV(SUBSTR(MD5(CONVERT(CONCAT(COALESCE(CONCAT(CHAR_LENGTH(v), ':', v), '~')) USING utf8mb4)), 1, 15), 16, 10) AS UNSIGNED))");
        assertThat(pg.bucket("\"id\"", 1, 100)).isEqualTo("(\"id\" - (1)) / 100");
        assertThat(MARIADB.checksumSql().orElseThrow().bucket("`id`", -5, 10)).isEqualTo("(`id` - (-5)) DIV 10");
    }

    @Test
    void checksumTextRefusesFloatingPoint() {
        SourceColumn c = new SourceColumn("f", ColumnKind.DOUBLE, dev.tidemark.event.ColumnType.of("double"), true, -1, "float8");
        assertThatThrownBy(() -> POSTGRES.checksumSql().orElseThrow().valueText("\"f\"", ValueKind.FLOAT, c))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readPathPerEngine() {
        assertThat(POSTGRES.readPath()).isEqualTo(ReadPath.COPY_TEXT);
        assertThat(SQLITE.readPath()).isEqualTo(ReadPath.ROW_TEXT);
        assertThat(MARIADB.readPath()).isEqualTo(ReadPath.RESULT_SET);
        assertThat(OTHER.readPath()).isEqualTo(ReadPath.RESULT_SET);
    }

    @Test
    void readTransactionsSessionsAndPositions() {
        assertThat(SQLITE.readsInTransaction()).isFalse();
        assertThat(POSTGRES.readsInTransaction()).isTrue();
        assertThat(MARIADB.readsInTransaction()).isTrue();
        assertThat(OTHER.readsInTransaction()).isTrue();
        assertThat(POSTGRES.positionQuery()).contains("SELECT pg_current_wal_lsn()::text");
        assertThat(MARIADB.positionQuery()).isEmpty();
        assertThat(SQLITE.positionQuery()).isEmpty();
    }

    @Test
    void sourceFacetCapabilities() {
        assertThat(SQLITE.temporalsAsText()).isTrue();
        assertThat(POSTGRES.temporalsAsText()).isFalse();
        assertThat(MARIADB.catalogIsSchema()).isTrue();
        assertThat(POSTGRES.catalogIsSchema()).isFalse();
        assertThat(POSTGRES.explainsPlans()).isTrue();
        assertThat(SQLITE.nowExpression()).isEqualTo("strftime('%Y-%m-%d %H:%M:%f', 'now')");
        assertThat(MARIADB.nowExpression()).isEqualTo("CURRENT_TIMESTAMP");
    }

    @Test
    void failuresAreClassifiedAndRetriedFromTheEngine() {
        assertThat(POSTGRES.classify(new java.sql.SQLException("gone", "08006"))).isInstanceOf(Failure.Transient.class);
        assertThat(MARIADB.retryPolicy()).isEqualTo(RetryPolicy.DEFAULT);
    }
}
