package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SqliteKeyRetypeTest {
    private static final Dialect SQLITE = Databases.forUrl("jdbc:sqlite:x.db").target().orElseThrow();

    @Test
    void theTableIsRebuiltWithTheKeyColumnCastAndItsOwnIndexesAgain() {
        List<SqliteKeyRetype.TableColumn> columns = List.of(
                new SqliteKeyRetype.TableColumn("id", "INTEGER", true, null, 1),
                new SqliteKeyRetype.TableColumn("v\"x", "TEXT", false, "'none'", 0),
                new SqliteKeyRetype.TableColumn("__tidemark_position", "TEXT", false, null, 0));
        List<String> sql = SqliteKeyRetype.statements("t", columns, List.of("CREATE INDEX \"t_v\" ON \"t\" (\"v\"\"x\")"), "id",
                "DECIMAL_TEXT(12,0)", SQLITE::quote);

        assertThat(sql).containsExactly(
                "CREATE TABLE \"tidemark_retype_t\" (\"id\" DECIMAL_TEXT(12,0) NOT NULL, \"v\"\"x\" TEXT DEFAULT 'none', "
                        + "\"__tidemark_position\" TEXT, PRIMARY KEY (\"id\"))",
                "INSERT INTO \"tidemark_retype_t\" (\"id\", \"v\"\"x\", \"__tidemark_position\") SELECT CAST(\"id\" AS DECIMAL_TEXT(12,0)), "
                        + "\"v\"\"x\", \"__tidemark_position\" FROM \"t\"",
                "DROP TABLE \"t\"",
                "ALTER TABLE \"tidemark_retype_t\" RENAME TO \"t\"",
                "CREATE INDEX \"t_v\" ON \"t\" (\"v\"\"x\")");
    }

    @Test
    void aCompositeKeyKeepsItsOrder() {
        List<SqliteKeyRetype.TableColumn> columns = List.of(
                new SqliteKeyRetype.TableColumn("b", "TEXT", true, null, 2),
                new SqliteKeyRetype.TableColumn("a", "INTEGER", true, null, 1));
        assertThat(SqliteKeyRetype.statements("t", columns, List.of(), "b", "INTEGER", SQLITE::quote).get(0))
                .isEqualTo("CREATE TABLE \"tidemark_retype_t\" (\"b\" INTEGER NOT NULL, \"a\" INTEGER NOT NULL, PRIMARY KEY (\"a\", \"b\"))");
    }

    @Test
    void serversChangeTheKeyColumnInPlace() throws Exception {
        Dialect postgres = Databases.forUrl("jdbc:postgresql://h/db").target().orElseThrow();
        Dialect mariadb = Databases.forUrl("jdbc:mariadb://h/db").target().orElseThrow();
        assertThat(postgres.retypeKeyColumn(null, "t", "id", "NUMERIC(12,0)"))
                .containsExactly("ALTER TABLE \"t\" ALTER COLUMN \"id\" TYPE NUMERIC(12,0) USING \"id\"::NUMERIC(12,0)");
        assertThat(mariadb.retypeKeyColumn(null, "t", "id", "DECIMAL(12,0)")).containsExactly("ALTER TABLE `t` MODIFY COLUMN `id` DECIMAL(12,0)");
    }
}
