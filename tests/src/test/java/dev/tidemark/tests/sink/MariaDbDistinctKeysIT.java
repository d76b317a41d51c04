package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.SinkException;
import dev.tidemark.sink.jdbc.JdbcChangeSink;
import dev.tidemark.sink.jdbc.PartitionOffset;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 11 item 2: the MariaDB target never merges distinct keys. The database has the server's default case-,
 * accent- and pad-insensitive collation ({@code utf8mb4_general_ci}). Six source keys that differ only in case,
 * accent or a trailing space stay six rows in a table Tidemark creates, whose text columns all compare byte-exactly;
 * a pre-existing table whose key collation would merge them is refused before anything is written, naming table,
 * column, collation and the fix (a {@link Failure.Fault}: the CLI exits 3).
 */
class MariaDbDistinctKeysIT {
    static final TableId T = new TableId("public", "codes");
    static final List<String> KEYS = List.of("abc", "ABC", "a", "a ", "é", "e");
    static final RowSchema S = new RowSchema(List.of(new Column("code", ColumnType.of("string"), false),
            new Column("note", ColumnType.of("string"), true)), List.of("code"));

    TargetDatabase target;
    JdbcChangeSink sink;

    @BeforeEach
    void open() throws Exception {
        target = TargetDatabase.mariadb();
        execute("ALTER DATABASE CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci");
    }

    @AfterEach
    void close() throws Exception {
        if (sink != null) {
            sink.close();
        }
        target.close();
    }

    private void openSink() throws Exception {
        sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults("distinct"));
    }

    private void execute(String sql) throws Exception {
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static List<ChangeEvent> sixKeys() {
        List<ChangeEvent> events = new ArrayList<>();
        long lsn = 1;
        for (String k : KEYS) {
            Map<String, Object> key = new LinkedHashMap<>();
            key.put("code", k);
            Map<String, Object> row = new LinkedHashMap<>(key);
            row.put("note", "[" + k + "]");
            events.add(new ChangeEvent.Upsert(T, key, S, row, new SourcePosition.Lsn(lsn++), ChangeEvent.Op.CREATE));
        }
        return events;
    }

    private List<String> storedKeys() throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = target.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT `code`, `note` FROM `codes`")) {
            while (rs.next()) {
                assertThat(rs.getString(2)).as("note of key [%s]", rs.getString(1)).isEqualTo("[" + rs.getString(1) + "]");
                out.add(rs.getString(1));
            }
        }
        return out;
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
        sink.apply(sixKeys(), List.of(new PartitionOffset("codes", 0, 6)));
        assertThat(storedKeys()).containsExactlyInAnyOrderElementsOf(KEYS);
        assertThat(collations()).containsEntry("code", "utf8mb4_nopad_bin").containsEntry("note", "utf8mb4_nopad_bin");
    }

    @Test
    void aPreExistingTableWhoseKeyCollationWouldMergeKeysIsRefusedNamingTableColumnCollationAndFix() throws Exception {
        execute("CREATE TABLE `codes` (`code` VARCHAR(20) NOT NULL PRIMARY KEY, `note` TEXT) COLLATE utf8mb4_general_ci");
        openSink();
        assertThatThrownBy(() -> sink.apply(sixKeys(), List.of(new PartitionOffset("codes", 0, 6))))
                .isInstanceOf(SinkException.class)
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
        openSink();
        assertThatThrownBy(() -> sink.apply(sixKeys(), List.of(new PartitionOffset("codes", 0, 6))))
                .isInstanceOf(SinkException.class)
                .hasMessageContaining("table codes")
                .hasMessageContaining("column code")
                .hasMessageContaining("utf8mb4_bin");
        assertThat(storedKeys()).isEmpty();
    }

    @Test
    void aPreExistingTableWithAByteExactKeyIsWrittenAsIs() throws Exception {
        execute("CREATE TABLE `codes` (`code` VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL PRIMARY KEY, `note` TEXT)");
        openSink();
        sink.apply(sixKeys(), List.of(new PartitionOffset("codes", 0, 6)));
        assertThat(storedKeys()).containsExactlyInAnyOrderElementsOf(KEYS);
    }
}
