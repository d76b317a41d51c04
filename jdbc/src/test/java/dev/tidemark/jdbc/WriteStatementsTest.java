package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact SQL of the write shapes (row upserts, UNNEST upserts and deletes) on each target engine. */
class WriteStatementsTest {
    private static final Dialect SQLITE = Databases.targetForUrl("jdbc:sqlite:x.db");
    private static final Dialect POSTGRES = Databases.targetForUrl("jdbc:postgresql://h/db");
    private static final Dialect MARIADB = Databases.targetForUrl("jdbc:mariadb://h/db");

    private static String upsert(Dialect d) {
        return d.upsert("o", List.of("id", "a", "p"), List.of("id"), List.of("a", "p"), "p");
    }

    @Test
    void onConflictUpsertsKeepANewerRow() {
        assertThat(upsert(SQLITE)).isEqualTo("INSERT INTO \"o\" (\"id\", \"a\", \"p\") VALUES (?, ?, ?) ON CONFLICT (\"id\") DO UPDATE SET \"a\" = excluded.\"a\", \"p\" = excluded.\"p\" WHERE \"o\".\"p\" IS NULL OR excluded.\"p\" IS NULL OR \"o\".\"p\" <= excluded.\"p\"");
        assertThat(upsert(POSTGRES)).isEqualTo(upsert(SQLITE));
        assertThat(POSTGRES.upsert("o", List.of("id", "p", "a"), List.of("id"), List.of("p", "a"), "p")).isEqualTo("INSERT INTO \"o\" (\"id\", \"p\", \"a\") VALUES (?, ?, ?) ON CONFLICT (\"id\") DO UPDATE SET \"p\" = excluded.\"p\", \"a\" = excluded.\"a\" WHERE \"o\".\"p\" IS NULL OR excluded.\"p\" IS NULL OR \"o\".\"p\" <= excluded.\"p\"");
    }

    @Test
    void onConflictWithoutPositionOrUpdateColumns() {
        assertThat(POSTGRES.upsert("o", List.of("id", "a"), List.of("id"), List.of("a"), null)).isEqualTo("INSERT INTO \"o\" (\"id\", \"a\") VALUES (?, ?) ON CONFLICT (\"id\") DO UPDATE SET \"a\" = excluded.\"a\"");
        assertThat(SQLITE.upsert("o", List.of("id", "p"), List.of("id"), List.of(), "p")).isEqualTo("INSERT INTO \"o\" (\"id\", \"p\") VALUES (?, ?) ON CONFLICT (\"id\") DO NOTHING");
    }

    @Test
    void mariaDbGuardsEachAssignmentAndAssignsThePositionLast() {
        assertThat(upsert(MARIADB)).isEqualTo("INSERT INTO `o` (`id`, `a`, `p`) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE `a` = IF((`p` IS NULL OR VALUES(`p`) IS NULL OR `p` <= VALUES(`p`)), VALUES(`a`), `a`), `p` = IF((`p` IS NULL OR VALUES(`p`) IS NULL OR `p` <= VALUES(`p`)), VALUES(`p`), `p`)");
        assertThat(MARIADB.upsert("o", List.of("id", "p", "a"), List.of("id"), List.of("p", "a"), "p")).isEqualTo(upsert(MARIADB)
                .replace("(`id`, `a`, `p`)", "(`id`, `p`, `a`)"));
        assertThat(MARIADB.upsert("o", List.of("id", "a"), List.of("id"), List.of("a"), null)).isEqualTo("INSERT INTO `o` (`id`, `a`) VALUES (?, ?) ON DUPLICATE KEY UPDATE `a` = VALUES(`a`)");
        assertThat(MARIADB.upsert("o", List.of("id", "p"), List.of("id"), List.of(), "p")).isEqualTo("INSERT IGNORE INTO `o` (`id`, `p`) VALUES (?, ?)");
    }

    @Test
    void postgresWritesAWholeBatchThroughUnnest() {
        SetWrites set = POSTGRES.setWrites().orElseThrow();
        assertThat(set.upsertMany("o", List.of("id", "a", "p"), List.of("bigint", "character varying(10)", "text"), List.of("id"),
                List.of("a", "p"), "p")).isEqualTo("INSERT INTO \"o\" (\"id\", \"a\", \"p\") SELECT CAST(\"__u\".\"v1\" AS bigint), CAST(\"__u\".\"v2\" AS character varying), CAST(\"__u\".\"v3\" AS text) FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[])) AS \"__u\"(\"v1\", \"v2\", \"v3\") ON CONFLICT (\"id\") DO UPDATE SET \"a\" = excluded.\"a\", \"p\" = excluded.\"p\" WHERE \"o\".\"p\" IS NULL OR excluded.\"p\" IS NULL OR \"o\".\"p\" <= excluded.\"p\"");
        assertThat(set.deleteMany("o", List.of("id", "k"), List.of("bigint", "character varying(10)"), "p")).isEqualTo("DELETE FROM \"o\" AS \"__t\" USING unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[])) AS \"__d\"(\"k1\", \"k2\", \"p\") WHERE \"__t\".\"id\" = CAST(\"__d\".\"k1\" AS bigint) AND \"__t\".\"k\" = CAST(\"__d\".\"k2\" AS character varying) AND (\"__t\".\"p\" IS NULL OR \"__d\".\"p\" IS NULL OR \"__t\".\"p\" <= \"__d\".\"p\" COLLATE \"C\")");
    }
}
