package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Types;
import org.junit.jupiter.api.Test;

/** How JDBC metadata maps to a column kind; pgjdbc reports every {@code bit(n)} as {@link Types#BIT}. */
class ColumnKindTest {
    @Test
    void aOneBitColumnIsABooleanAndALongerBitStringIsText() {
        assertThat(ColumnKind.ofJdbc(Types.BIT, "bit", 1)).isEqualTo(ColumnKind.BOOLEAN);
        assertThat(ColumnKind.ofJdbc(Types.BIT, "bit", 3)).isEqualTo(ColumnKind.TEXT);
        assertThat(ColumnKind.ofJdbc(Types.OTHER, "varbit", 5)).isEqualTo(ColumnKind.TEXT);
        assertThat(ColumnKind.ofJdbc(Types.BIT, "tinyint", 1)).isEqualTo(ColumnKind.BOOLEAN);
        assertThat(ColumnKind.ofJdbc(Types.BOOLEAN, "bool", 1)).isEqualTo(ColumnKind.BOOLEAN);
    }
}
