package dev.tidemark.reconcile;

import dev.tidemark.jdbc.ValueKind;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PostgreSQL COPY text rows: NULLs, escapes, Unicode; the hashing path agrees with the text path. */
class CopyParserTest {
    private static final List<ValueKind> KINDS = List.of(ValueKind.INTEGER, ValueKind.DECIMAL, ValueKind.TIMESTAMPTZ, ValueKind.BOOLEAN,
            ValueKind.TEXT, ValueKind.BYTES);

    @Test
    void parsesNullsEscapesAndUnicode() {
        byte[] data = ("7\t12.50\t2026-01-02 03:04:05.5+00\tt\ttab\\there\\\\ new\\nline é 😀\t\\\\x0a0B\n"
                + "8\t\\N\t\\N\tf\t\t\\N\n").getBytes(StandardCharsets.UTF_8);
        List<String[]> rows = new ArrayList<>();
        new CopyParser(KINDS).parse(data, v -> rows.add(v.clone()));
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).containsExactly("7", "12.5", "2026-01-02T03:04:05.500000Z", "true", "tab\there\\ new\nline é 😀", "0a0b");
        assertThat(rows.get(1)).containsExactly("8", null, null, "false", "", null);
    }

    @Test
    void hashingPathAgreesWithTheTextPath() {
        byte[] data = ("7\t12.50\t2026-01-02 03:04:05.5+00\tt\ttab\\there é\t\\\\x0a0B\n8\t\\N\t\\N\tf\t\t\\N\n")
                .getBytes(StandardCharsets.UTF_8);
        List<Long> viaText = new ArrayList<>();
        new CopyParser(KINDS).parse(data, v -> viaText.add(RowHash.of(v)));
        List<Long> hashed = new ArrayList<>();
        List<Long> keys = new ArrayList<>();
        new CopyParser(KINDS).hash(data, 0, new RowHash(), new TableSide.HashSink() {
            @Override
            public void accept(long k, long h) {
                keys.add(k);
                hashed.add(h);
            }

            @Override
            public void restart() {
                throw new AssertionError("COPY never starts over");
            }
        });
        assertThat(keys).containsExactly(7L, 8L);
        assertThat(hashed).isEqualTo(viaText);
    }
}
