package dev.tidemark.connector.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.Column;
import dev.tidemark.event.ColumnType;
import dev.tidemark.event.RowSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResumeKeyTest {

    @Test
    void aCompositeKeyRoundTripsInKeyOrder() throws Exception {
        RowSchema schema = new RowSchema(List.of(new Column("name", ColumnType.of("string"), false),
                new Column("region", ColumnType.of("string"), false), new Column("n", ColumnType.of("int64"), false)),
                List.of("region", "n"));
        String json = ResumeKey.encode(List.of("eu", 9_007_199_254_740_993L), schema, schema.keyColumns());
        assertThat(json).isEqualTo("[\"eu\",9007199254740993]");
        assertThat(ResumeKey.decode(json, schema)).containsExactly("eu", 9_007_199_254_740_993L);
    }

    @Test
    void noKeyMeansFromTheStart() throws Exception {
        assertThat(ResumeKey.decode(null, new RowSchema(List.of(), List.of()))).isNull();
    }
}
