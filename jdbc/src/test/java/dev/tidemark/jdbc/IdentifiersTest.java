package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IdentifiersTest {

    @Test
    void wrapsAndDoublesEmbeddedQuotes() {
        assertThat(Identifiers.doubleQuoted("a\"b")).isEqualTo("\"a\"\"b\"");
        assertThat(Identifiers.doubleQuoted("x; DROP TABLE y")).isEqualTo("\"x; DROP TABLE y\"");
        assertThat(Identifiers.doubleQuoted("Ünïcode")).isEqualTo("\"Ünïcode\"");
        assertThat(Identifiers.backticked("a`b\"c")).isEqualTo("`a``b\"c`");
        assertThat(Identifiers.backticked("select")).isEqualTo("`select`");
    }
}
