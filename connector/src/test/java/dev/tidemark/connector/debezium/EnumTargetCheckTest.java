package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnumTargetCheckTest {
    static final CapturedColumn MOOD = new CapturedColumn(new TableId("public", "typed"), "v", "mood", "mood", 'e', 'E', null);
    static final List<String> LABELS = List.of("happy", "sad, but ok", "it's");

    @Test
    void theSameLabelsInTheSameOrderPass() {
        assertThat(EnumTargetCheck.problem(MOOD, LABELS, LABELS)).isEmpty();
    }

    @Test
    void aMissingTypeIsOneLineWithTheStatementThatCreatesIt() {
        assertThat(EnumTargetCheck.problem(MOOD, LABELS, List.of())).hasValueSatisfying(m -> assertThat(m)
                .contains("table public.typed column v has enum type mood: the target has no enum type mood")
                .contains("CREATE TYPE \"mood\" AS ENUM ('happy', 'sad, but ok', 'it''s')")
                .contains("source.excludeColumns: [public.typed.v]")
                .doesNotContain("\n"));
    }

    @Test
    void otherLabelsOrAnotherOrderAreRefusedNamingBoth() {
        assertThat(EnumTargetCheck.problem(MOOD, LABELS, List.of("sad, but ok", "happy", "it's"))).hasValueSatisfying(m ->
                assertThat(m).contains("has labels ('sad, but ok', 'happy', 'it''s'), the source's are ('happy', 'sad, but ok', 'it''s')"));
        assertThat(EnumTargetCheck.problem(MOOD, LABELS, List.of("happy"))).isPresent();
    }

    @Test
    void anEnumNameNotInLowerCaseIsRefused() {
        CapturedColumn upper = new CapturedColumn(MOOD.table(), "v", "\"Mood\"", "Mood", 'e', 'E', null);
        assertThat(EnumTargetCheck.problem(upper, LABELS, LABELS)).hasValueSatisfying(m ->
                assertThat(m).contains("column v has enum type Mood", "lower-case", "source.excludeColumns: [public.typed.v]"));
    }
}
