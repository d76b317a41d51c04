package dev.tidemark.tests.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
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
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Issue 11 item 2 on one target: six source keys that differ only in case, accent or a trailing space are written
 * into table {@code codes} through the real sink; a pre-existing table whose key collation would merge them must be
 * refused before anything is written. Subclasses give the target and the engine's own collation cases.
 */
abstract class AbstractDistinctKeysIT {
    static final TableId T = new TableId("public", "codes");
    static final List<String> KEYS = List.of("abc", "ABC", "a", "a ", "é", "e");
    static final RowSchema S = new RowSchema(List.of(new Column("code", ColumnType.of("string"), false),
            new Column("note", ColumnType.of("string"), true)), List.of("code"));

    TargetDatabase target;
    JdbcChangeSink sink;

    /** The target database this class writes into (created fresh for every test). */
    abstract TargetDatabase newTarget() throws Exception;

    /** Whether {@link #storedKeys()} also checks each row's note against its key. */
    boolean checksNotes() {
        return false;
    }

    @BeforeEach
    void open() throws Exception {
        target = newTarget();
    }

    @AfterEach
    void close() throws Exception {
        if (sink != null) {
            sink.close();
        }
        target.close();
    }

    void openSink() throws Exception {
        sink = JdbcChangeSink.open(target.jdbcUrl(), target.properties(), SinkOptions.defaults("distinct"));
    }

    void execute(String sql) throws Exception {
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    void applySixKeys() throws Exception {
        sink.apply(sixKeys(), List.of(new PartitionOffset("codes", 0, 6)));
    }

    /** Opens the sink and asserts that applying the six keys is refused with a {@link SinkException}. */
    AbstractThrowableAssert<?, ? extends Throwable> assertSixKeysRefused() throws Exception {
        openSink();
        return assertThatThrownBy(this::applySixKeys).isInstanceOf(SinkException.class);
    }

    static List<ChangeEvent> sixKeys() {
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

    List<String> storedKeys() throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = target.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT code, note FROM codes")) {
            while (rs.next()) {
                if (checksNotes()) {
                    assertThat(rs.getString(2)).as("note of key [%s]", rs.getString(1)).isEqualTo("[" + rs.getString(1) + "]");
                }
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
