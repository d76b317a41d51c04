package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.SinkException;
import org.junit.jupiter.api.Test;

/**
 * Issue 11 item 2, on PostgreSQL: a pre-existing target table whose primary key has a nondeterministic collation
 * (here ICU, case- and accent-insensitive) would merge keys that differ in case or accents through
 * {@code ON CONFLICT}; it is refused before anything is written, naming table, column, collation and the fix.
 */
class PostgresDistinctKeysIT extends AbstractDistinctKeysIT {
    @Override
    TargetDatabase newTarget() {
        return TargetDatabase.postgres();
    }

    @Test
    void sixKeysStaySixRowsInATableTidemarkCreates() throws Exception {
        openSink();
        applySixKeys();
        assertThat(storedKeys()).containsExactlyInAnyOrderElementsOf(KEYS);
    }

    @Test
    void aPreExistingKeyWithANondeterministicCollationIsRefusedNamingTableColumnCollationAndFix() throws Exception {
        execute("CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level1', deterministic = false)");
        execute("CREATE TABLE codes (code varchar(20) COLLATE ci PRIMARY KEY, note text)");
        assertSixKeysRefused()
                .satisfies(e -> assertThat(((SinkException) e).failure()).isInstanceOf(Failure.Fault.class))
                .hasMessageContaining("table codes column code")
                .hasMessageContaining("collation ci")
                .hasMessageContaining("ALTER TABLE \"codes\" ALTER COLUMN \"code\" TYPE character varying(20) COLLATE \"C\"")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(storedKeys()).isEmpty();
        assertThat(sink.storedOffsets()).isEmpty();
    }
}
