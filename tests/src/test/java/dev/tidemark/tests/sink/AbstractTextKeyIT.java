package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.reconcile.CanonicalValues;
import dev.tidemark.jdbc.ValueKind;
import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
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
 * Issue 9 item 8: a composite {@code (int, text)} primary key. The target table is created, and keys that differ only
 * in case, accents or trailing spaces stay distinct rows (text keys compare byte-exactly on every engine).
 */
abstract class AbstractTextKeyIT {
    static final TableId T = new TableId("public", "codes");
    static final List<String> CODES = List.of("abc", "ABC", "a", "a ", "é", "e", "E\u0301", "ß", "ss", "😀");

    TargetDatabase target;
    JdbcChangeSink sink;

    abstract TargetDatabase target() throws Exception;

    /** Engine-specific set-up before the sink connects (e.g. a server's default collation). */
    void prepare(Connection admin) throws Exception {
    }

    @BeforeEach
    void open() throws Exception {
        target = target();
        try (Connection c = target.connect()) {
            prepare(c);
        }
        sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults("textkey"));
    }

    @AfterEach
    void close() throws Exception {
        sink.close();
        target.close();
    }

    static RowSchema schema(ColumnType codeType) {
        return new RowSchema(List.of(new Column("tenant", ColumnType.of("int32"), false), new Column("code", codeType, false),
                new Column("note", ColumnType.of("string"), true)), List.of("tenant", "code"));
    }

    static ChangeEvent.Upsert upsert(RowSchema s, int tenant, String code, String note, long lsn) {
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("tenant", tenant);
        key.put("code", code);
        Map<String, Object> row = new LinkedHashMap<>(key);
        row.put("note", note);
        return new ChangeEvent.Upsert(T, key, s, row, new SourcePosition.Lsn(lsn), ChangeEvent.Op.CREATE);
    }

    List<List<String>> rows() throws Exception {
        List<List<String>> out = new ArrayList<>();
        var q = target.quotes();
        try (Connection c = target.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + q.quote("tenant") + ", " + q.quote("code") + ", " + q.quote("note") + " FROM " + q.quote("codes"))) {
            while (rs.next()) {
                out.add(List.of(CanonicalValues.read(rs, 1, ValueKind.INTEGER), rs.getString(2), rs.getString(3)));
            }
        }
        return out;
    }

    @Test
    void compositeIntTextKeyKeepsKeysThatDifferInCaseAccentOrTrailingSpaceDistinct() throws Exception {
        RowSchema s = schema(ColumnType.of("string"));
        List<ChangeEvent> events = new ArrayList<>();
        long lsn = 1;
        for (String code : CODES) {
            events.add(upsert(s, 1, code, "note of [" + code + "]", lsn++));
        }
        events.add(upsert(s, 2, "abc", "other tenant", lsn++));
        sink.apply(events, List.of(new PartitionOffset("codes", 0, events.size())));
        // a second batch updates each key once more: an update must hit exactly its own row
        List<ChangeEvent> updates = new ArrayList<>();
        for (String code : CODES) {
            updates.add(upsert(s, 1, code, "updated [" + code + "]", lsn++));
        }
        sink.apply(updates, List.of(new PartitionOffset("codes", 0, events.size() + updates.size())));

        List<List<String>> expected = new ArrayList<>();
        for (String code : CODES) {
            expected.add(List.of("1", code, "updated [" + code + "]"));
        }
        expected.add(List.of("2", "abc", "other tenant"));
        assertThat(rows()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(sink.storedOffsets()).isEqualTo(Map.of("codes", Map.of(0, (long) events.size() + updates.size())));
    }

    @Test
    void aKeySizedFromTheSourceLengthTakesValuesUpToThatLength() throws Exception {
        RowSchema s = schema(new ColumnType("string", null, Map.of("__debezium.source.column.type", "VARCHAR",
                "__debezium.source.column.length", "40")));
        String longest = "x".repeat(39) + "é";
        sink.apply(List.of(upsert(s, 1, longest, "forty", 1), upsert(s, 1, "X".repeat(39) + "é", "forty upper", 2)), List.of());
        assertThat(rows()).containsExactlyInAnyOrder(List.of("1", longest, "forty"), List.of("1", "X".repeat(39) + "é", "forty upper"));
    }
}
