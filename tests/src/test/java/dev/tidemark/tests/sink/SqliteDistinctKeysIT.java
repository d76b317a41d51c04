package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.SinkException;
import org.junit.jupiter.api.Test;

/**
 * Issue 11 item 2, on SQLite: a pre-existing target table whose primary key has a NOCASE or RTRIM collation
 * would merge keys that differ in case or trailing spaces through
 * {@code ON CONFLICT}; it is refused before anything is written, naming table, column, collation and the fix.
 */
class SqliteDistinctKeysIT extends AbstractDistinctKeysIT {
    @Override
    TargetDatabase newTarget() throws Exception {
        return TargetDatabase.sqlite();
    }

    @Test
    void sixKeysStaySixRowsInATableTidemarkCreates() throws Exception {
        openSink();
        applySixKeys();
        assertThat(storedKeys()).containsExactlyInAnyOrderElementsOf(KEYS);
    }

    @Test
    void aPreExistingKeyWithANocaseCollationIsRefusedNamingTableColumnCollationAndFix() throws Exception {
        execute("CREATE TABLE codes (code TEXT COLLATE NOCASE PRIMARY KEY, note TEXT)");
        assertSixKeysRefused()
                .satisfies(e -> assertThat(((SinkException) e).failure()).isInstanceOf(Failure.Fault.class))
                .hasMessageContaining("table codes column code")
                .hasMessageContaining("collation NOCASE")
                .hasMessageContaining("COLLATE BINARY")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(storedKeys()).isEmpty();
        assertThat(sink.storedOffsets()).isEmpty();
    }

    @Test
    void aPreExistingCompositeKeyWithAnRtrimCollationIsRefused() throws Exception {
        execute("CREATE TABLE codes (tenant INTEGER NOT NULL, code TEXT COLLATE RTRIM NOT NULL, note TEXT, PRIMARY KEY (tenant, code))");
        assertSixKeysRefused()
                .hasMessageContaining("table codes column code")
                .hasMessageContaining("collation RTRIM");
        assertThat(storedKeys()).isEmpty();
    }
}
