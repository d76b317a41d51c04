package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DatabasesTest {

    @Test
    void picksTheEngineFromTheUrlScheme() {
        assertThat(Databases.forUrl("jdbc:sqlite:/tmp/x.db")).isInstanceOf(SqliteDatabase.class);
        assertThat(Databases.forUrl("jdbc:postgresql://localhost/db")).isInstanceOf(PostgresDatabase.class);
        assertThat(Databases.forUrl("jdbc:mariadb://localhost/db")).isInstanceOf(MariaDbDatabase.class);
        assertThat(Databases.forUrl("jdbc:mysql://localhost/db")).isInstanceOf(MariaDbDatabase.class);
    }

    @Test
    void anyOtherJdbcUrlFallsBackToStandardSql() {
        Database other = Databases.forUrl("jdbc:h2:mem:x");
        assertThat(other).isInstanceOf(OtherJdbcDatabase.class);
        assertThat(other.name()).isEqualTo("jdbc");
        assertThat(other.quote("a\"b")).isEqualTo("\"a\"\"b\"");
        assertThat(other.localNowSql()).isEqualTo("SELECT LOCALTIMESTAMP");
        assertThat(other.target()).isEmpty();
    }

    @Test
    void targetsAreTheThreeEnginesAndAnythingElseIsRefusedNamingTheScheme() {
        assertThat(Databases.targetForUrl("jdbc:sqlite:x.db").name()).isEqualTo("sqlite");
        assertThat(Databases.targetForUrl("jdbc:postgresql://h/db").name()).isEqualTo("postgresql");
        assertThat(Databases.targetForUrl("jdbc:mysql://h/db").name()).isEqualTo("mariadb");
        assertThatThrownBy(() -> Databases.targetForUrl("jdbc:h2:mem:x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unsupported target jdbc:h2 (supported: jdbc:sqlite, jdbc:postgresql, jdbc:mariadb)");
    }

    @Test
    void eachEngineIsItsOwnTargetFacetWithTheSameName() {
        for (String url : new String[] {"jdbc:sqlite:x.db", "jdbc:postgresql://h/db", "jdbc:mariadb://h/db"}) {
            Database d = Databases.forUrl(url);
            assertThat(d.target()).containsSame((Dialect) d);
            assertThat(d.target().orElseThrow().name()).isEqualTo(d.name());
        }
    }
}
