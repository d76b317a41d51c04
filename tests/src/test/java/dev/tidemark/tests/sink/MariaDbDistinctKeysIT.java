package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.SinkException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 11 item 2: the MariaDB target never merges distinct keys. The database has the server's default case-,
 * accent- and pad-insensitive collation ({@code utf8mb4_general_ci}). Six source keys that differ only in case,
 * accent or a trailing space stay six rows in a table Tidemark creates, whose text columns all compare byte-exactly;
 * a pre-existing table whose key collation would merge them is refused before anything is written, naming table,
 * column, collation and the fix (a {@link Failure.Fault}: the CLI exits 3).
 */
class MariaDbDistinctKeysIT extends AbstractDistinctKeysIT {
    @Override
    TargetDatabase newTarget() throws Exception {
        TargetDatabase t = TargetDatabase.mariadb();
        try (Connection c = t.connect(); Statement s = c.createStatement()) {
            s.execute("ALTER DATABASE CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci");
        }
        return t;
    }

    @Override
    boolean checksNotes() {
        return true;
    }

    private Map<String, String> collations() throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = target.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT column_name, collation_name FROM information_schema.columns "
                     + "WHERE table_schema = DATABASE() AND table_name = 'codes' AND column_name IN ('code', 'note')")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    @Test
    void sixKeysThatDifferInCaseAccentOrTrailingSpaceStaySixRowsAndTextComparesByteExactly() throws Exception {
        openSink();
        applySixKeys();
        assertThat(storedKeys()).containsExactlyInAnyOrderElementsOf(KEYS);
        assertThat(collations()).containsEntry("code", "utf8mb4_nopad_bin").containsEntry("note", "utf8mb4_nopad_bin");
    }

    @Test
    void aPreExistingTableWhoseKeyCollationWouldMergeKeysIsRefusedNamingTableColumnCollationAndFix() throws Exception {
        execute("CREATE TABLE `codes` (`code` VARCHAR(20) NOT NULL PRIMARY KEY, `note` TEXT) COLLATE utf8mb4_general_ci");
        assertSixKeysRefused()
                .satisfies(e -> assertThat(((SinkException) e).failure()).isInstanceOf(Failure.Fault.class))
                .hasMessageContaining("table codes")
                .hasMessageContaining("column code")
                .hasMessageContaining("utf8mb4_general_ci")
                .hasMessageContaining("ALTER TABLE `codes` MODIFY `code` VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(storedKeys()).isEmpty();
        assertThat(sink.storedOffsets()).isEmpty();
    }

    @Test
    void aPreExistingBinaryKeyThatPadsSpacesIsRefusedToo() throws Exception {
        execute("CREATE TABLE `codes` (`code` VARCHAR(20) COLLATE utf8mb4_bin NOT NULL PRIMARY KEY, `note` TEXT)");
        assertSixKeysRefused()
                .hasMessageContaining("table codes")
                .hasMessageContaining("column code")
                .hasMessageContaining("utf8mb4_bin");
        assertThat(storedKeys()).isEmpty();
    }

    @Test
    void aPreExistingTableWithAByteExactKeyIsWrittenAsIs() throws Exception {
        execute("CREATE TABLE `codes` (`code` VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL PRIMARY KEY, `note` TEXT)");
        openSink();
        applySixKeys();
        assertThat(storedKeys()).containsExactlyInAnyOrderElementsOf(KEYS);
    }
}
