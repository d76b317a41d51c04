package dev.tidemark.connector.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TextCursorShapesTest {
    private static TextCursorShapes.Verdict of(String... keyValue) {
        TextCursorShapes s = new TextCursorShapes();
        for (int i = 0; i < keyValue.length; i += 2) {
            s.add(keyValue[i], keyValue[i + 1]);
        }
        return s.verdict();
    }

    @Test
    void oneShapeIsUniformWithItsPattern() {
        assertThat(of("1", "2024-05-01T10:00:00Z", "2", "2024-05-02T09:30:00Z")).isInstanceOfSatisfying(TextCursorShapes.Uniform.class,
                u -> {
                    assertThat(u.pattern()).isEqualTo("YYYY-MM-DDTHH:MM:SSZ");
                    assertThat(u.rows()).isEqualTo(2);
                    assertThat(u.shape().orElseThrow().zone()).isEqualTo("Z");
                });
        assertThat(((TextCursorShapes.Uniform) of("1", "2024-05-01 10:00:00", "2", "2024-05-01 11:00:00")).pattern())
                .isEqualTo("YYYY-MM-DD HH:MM:SS");
        assertThat(((TextCursorShapes.Uniform) of("1", "2024-05-01 10:00:00.123", "2", "2024-05-01 11:00:00.500")).pattern())
                .isEqualTo("YYYY-MM-DD HH:MM:SS.fff");
        assertThat(((TextCursorShapes.Uniform) of("1", "2024-05-01", "2", "2024-05-03")).pattern()).isEqualTo("YYYY-MM-DD");
        assertThat(((TextCursorShapes.Uniform) of("1", "2024-05-01T10:00+02:00")).pattern()).isEqualTo("YYYY-MM-DDTHH:MM+02:00");
    }

    @Test
    void noValuesIsUniformWithoutAShape() {
        assertThat(of()).isEqualTo(new TextCursorShapes.Uniform(java.util.Optional.empty(), "no values yet", 0));
    }

    @Test
    void separatorZoneFractionOrOffsetDifferencesAreMixed() {
        assertThat(of("1", "2024-05-01T10:00:00Z", "2", "2024-05-01 10:00:00")).isInstanceOf(TextCursorShapes.Mixed.class);
        assertThat(of("1", "2024-05-01T10:00:00Z", "2", "2024-05-01T10:00:00")).isInstanceOf(TextCursorShapes.Mixed.class);
        assertThat(of("1", "2024-05-01T10:00:00Z", "2", "2024-05-01T10:00:00.5Z")).isInstanceOf(TextCursorShapes.Mixed.class);
        assertThat(of("1", "2024-05-01T10:00:00+01:00", "2", "2024-05-01T10:00:00+02:00")).isInstanceOf(TextCursorShapes.Mixed.class);
    }

    @Test
    void notIsoTextIsAShapeOfItsOwnAndTheDescriptionNamesRowsAndKeys() {
        TextCursorShapes.Verdict v = of("1", "2024-05-01T10:00:00Z", "2", "2024-05-01T11:00:00Z", "3", "2024-05-01T12:00:00Z",
                "4", "2024-05-01T13:00:00Z", "5", "2024-05-01 10:00:00", "6", "05/01/2024", "7", " 2024-05-01T10:00:00Z");
        assertThat(v).isInstanceOf(TextCursorShapes.Mixed.class);
        TextCursorShapes.Mixed m = (TextCursorShapes.Mixed) v;
        assertThat(m.shapes().keySet()).containsExactly("YYYY-MM-DDTHH:MM:SSZ", "YYYY-MM-DD HH:MM:SS", "not ISO-8601");
        assertThat(m.shapes().get("YYYY-MM-DDTHH:MM:SSZ")).isEqualTo(new TextCursorShapes.Found(4, List.of("1", "2", "3")));
        assertThat(TextCursorShapes.describe(m)).isEqualTo("YYYY-MM-DDTHH:MM:SSZ (4 rows, e.g. keys 1, 2, 3); "
                + "YYYY-MM-DD HH:MM:SS (1 row, e.g. key 5); not ISO-8601 (2 rows, e.g. keys 6, 7)");
    }
}
