package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import org.junit.jupiter.api.Test;

class DatabaseQuotingTest {
    private static final Database SQLITE = Databases.forUrl("jdbc:sqlite:x.db");
    private static final Database POSTGRES = Databases.forUrl("jdbc:postgresql://h/db");
    private static final Database MARIADB = Databases.forUrl("jdbc:mariadb://h/db");

    @Test
    void standardEnginesDoubleQuoteAndDoubleEmbeddedQuotes() {
        assertThat(SQLITE.quote("a\"b")).isEqualTo("\"a\"\"b\"");
        assertThat(POSTGRES.quote("x; DROP TABLE y")).isEqualTo("\"x; DROP TABLE y\"");
    }

    @Test
    void mariaDbBackticksAndDoublesEmbeddedBackticks() {
        assertThat(MARIADB.quote("a`b\"c")).isEqualTo("`a``b\"c`");
    }

    @Test
    void qualifiedNamesQuoteSchemaAndTableApart() {
        assertThat(POSTGRES.qualified(new TableId("public", "or\"ders"))).isEqualTo("\"public\".\"or\"\"ders\"");
        assertThat(MARIADB.qualified(new TableId("", "orders"))).isEqualTo("`orders`");
    }

    @Test
    void theTargetFacetQuotesAsTheSourceFacetDoes() {
        for (Database d : new Database[] {SQLITE, POSTGRES, MARIADB}) {
            assertThat(d.target().orElseThrow().quote("we`i\"rd")).isEqualTo(d.quote("we`i\"rd"));
        }
    }
}
