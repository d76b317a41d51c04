package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.config.Secret;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.event.TableId;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExcludedColumnsTest {
    static final TableId T = new TableId("public", "typed");
    static final TableId OTHER = new TableId("public", "other");
    static final List<CapturedColumn> COLUMNS = List.of(
            new CapturedColumn(T, "id", "integer", "int4", 'b', 'N', null),
            new CapturedColumn(T, "v", "time with time zone", "timetz", 'b', 'D', null));

    private static SourceConfig excluding(SourceConfig.ColumnId... columns) {
        return new SourceConfig("jdbc:postgresql://h/db", "u", Secret.empty(), "s", "p", List.of(T, OTHER), true,
                Duration.ofMillis(10), List.of(columns));
    }

    @Test
    void anExistingNonKeyColumnIsFine() {
        assertThat(ExcludedColumns.problems(excluding(new SourceConfig.ColumnId(T, "v")), T, COLUMNS, List.of("id"))).isEmpty();
    }

    @Test
    void aMisspeltColumnIsNamedWithTheTablesColumns() {
        assertThat(ExcludedColumns.problems(excluding(new SourceConfig.ColumnId(OTHER, "x"), new SourceConfig.ColumnId(T, "vv")),
                T, COLUMNS, List.of("id")))
                .containsExactly("source.excludeColumns[1] public.typed.vv: table public.typed has no column \"vv\" (its columns: [id, v])");
    }

    @Test
    void aPrimaryKeyColumnCannotBeExcluded() {
        assertThat(ExcludedColumns.problems(excluding(new SourceConfig.ColumnId(T, "id")), T, COLUMNS, List.of("id")))
                .singleElement().asString().contains("source.excludeColumns[0] public.typed.id: \"id\" is part of the primary key");
    }
}
