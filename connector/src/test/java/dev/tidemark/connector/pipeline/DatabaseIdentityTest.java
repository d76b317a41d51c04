package dev.tidemark.connector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DatabaseIdentityTest {
    private static final DatabaseIdentity APP = new DatabaseIdentity("7301", "1780000000.123456", 5432, "app", 16384);

    @Test
    void theSameServerAndDatabaseIsTheSame() {
        assertThat(APP.sameAs(new DatabaseIdentity("7301", "1780000000.123456", 5432, "app", 16384))).isTrue();
    }

    @Test
    void withoutTheSystemIdentifierTheOtherPartsDecide() {
        assertThat(APP.sameAs(new DatabaseIdentity(null, "1780000000.123456", 5432, "app", 16384))).isTrue();
        assertThat(APP.sameAs(new DatabaseIdentity(null, "1780000000.123457", 5432, "app", 16384))).isFalse();
    }

    @Test
    void anotherDatabaseOfTheServerIsNotTheSame() {
        assertThat(APP.sameAs(new DatabaseIdentity("7301", "1780000000.123456", 5432, "replica", 16385))).isFalse();
    }

    @Test
    void anotherServerIsNotTheSame() {
        assertThat(APP.sameAs(new DatabaseIdentity("7301", "1780000000.123456", 5433, "app", 16384))).as("port").isFalse();
        assertThat(APP.sameAs(new DatabaseIdentity("9999", "1780000000.123456", 5432, "app", 16384))).as("cluster").isFalse();
        assertThat(APP.sameAs(new DatabaseIdentity("7301", "1780000000.123456", 5432, "app", 20000))).as("database oid").isFalse();
    }
}
