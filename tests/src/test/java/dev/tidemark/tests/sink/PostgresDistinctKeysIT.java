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
 * Issue 11 item 2, on PostgreSQL: a pre-existing target table whose primary key has a nondeterministic collation
 * (here ICU, case- and accent-insensitive) would merge keys that differ in case or accents through
 * {@code ON CONFLICT}; it is refused before anything is written, naming table, column, collation and the fix.
 */
class PostgresDistinctKeysIT {
    static final TableId T = new TableId("public", "codes");
    static final List<String> KEYS = List.of("abc", "ABC", "a", "a ", "é", "e");
    static final RowSchema S = new RowSchema(List.of(new Column("code", ColumnType.of("string"), false),
            new Column("note", ColumnType.of("string"), true)), List.of("code"));

    TargetDatabase target;
    JdbcChangeSink sink;

    @BeforeEach
    void open() throws Exception {
        target = TargetDatabase.postgres();
    }

    @AfterEach
    void close() throws Exception {
        if (sink != null) {
            sink.close();
        }
        target.close();
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
        try (Connection c = target.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT code FROM codes")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void sixKeysStaySixRowsInATableTidemarkCreates() throws Exception {
        sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults("distinct"));
        sink.apply(sixKeys(), List.of(new PartitionOffset("codes", 0, 6)));
        assertThat(storedKeys()).containsExactlyInAnyOrderElementsOf(KEYS);
    }

    @Test
    void aPreExistingKeyWithANondeterministicCollationIsRefusedNamingTableColumnCollationAndFix() throws Exception {
        execute("CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level1', deterministic = false)");
        execute("CREATE TABLE codes (code varchar(20) COLLATE ci PRIMARY KEY, note text)");
        sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults("distinct"));
        assertThatThrownBy(() -> sink.apply(sixKeys(), List.of(new PartitionOffset("codes", 0, 6))))
                .isInstanceOf(SinkException.class)
                .satisfies(e -> assertThat(((SinkException) e).failure()).isInstanceOf(Failure.Fault.class))
                .hasMessageContaining("table codes column code")
                .hasMessageContaining("collation ci")
                .hasMessageContaining("ALTER TABLE \"codes\" ALTER COLUMN \"code\" TYPE character varying(20) COLLATE \"C\"")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(storedKeys()).isEmpty();
        assertThat(sink.storedOffsets()).isEmpty();
    }
}
