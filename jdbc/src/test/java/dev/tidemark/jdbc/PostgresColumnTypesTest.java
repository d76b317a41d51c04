package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.ColumnType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PostgreSQL target keeps the source type of columns Debezium carries as text. */
class PostgresColumnTypesTest {
    private final PostgresDatabase pg = new PostgresDatabase();

    private static ColumnType text(String logical, String sourceType, String length) {
        return new ColumnType("string", logical, length == null ? Map.of(ColumnType.SOURCE_TYPE, sourceType)
                : Map.of(ColumnType.SOURCE_TYPE, sourceType, ColumnType.SOURCE_LENGTH, length));
    }

    @Test
    void charNIntervalInetAndJsonKeepTheirTypes() {
        assertThat(pg.columnType(text(null, "BPCHAR", "5"), false)).isEqualTo("CHAR(5)");
        assertThat(pg.columnType(text(null, "INET", null), true)).isEqualTo("INET");
        assertThat(pg.columnType(text(ColumnType.INTERVAL, "INTERVAL", null), false)).isEqualTo("INTERVAL");
        assertThat(pg.columnType(text(ColumnType.JSON, "JSON", null), false)).isEqualTo("JSON");
        assertThat(pg.columnType(text(ColumnType.JSON, "JSONB", null), false)).isEqualTo("JSONB");
        assertThat(pg.columnType(new ColumnType("string", ColumnType.JSON, Map.of()), false)).isEqualTo("JSONB");
    }

    @Test
    void varcharKeepsItsLength() {
        assertThat(pg.columnType(text(null, "VARCHAR", "40"), true)).isEqualTo("VARCHAR(40)");
        assertThat(pg.columnType(text(null, "VARCHAR", "2147483647"), false)).isEqualTo("VARCHAR");
    }

    @Test
    void otherTextStaysText() {
        assertThat(pg.columnType(text(null, "TEXT", "2147483647"), false)).isEqualTo("TEXT");
        assertThat(pg.columnType(ColumnType.of("string"), false)).isEqualTo("TEXT");
    }
}
