package dev.tidemark.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

class RecordBytesTest {
    private static final String ENVELOPE = "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"type\":\"int64\",\"optional\":false,\"field\":\"id\"},"
            + "{\"type\":\"bytes\",\"optional\":true,\"name\":\"org.apache.kafka.connect.data.Decimal\",\"version\":1,"
            + "\"parameters\":{\"scale\":\"2\"},\"field\":\"amount\"},{\"type\":\"string\",\"optional\":true,\"field\":\"note\"}],"
            + "\"optional\":false,\"name\":\"shop.public.orders.Value\"},\"payload\":{\"id\":7,\"amount\":\"MDk=\",\"note\":null}}";

    private final RecordBytes bytes = new RecordBytes();

    @Test
    void bytesAndTextPassThrough() {
        byte[] raw = ENVELOPE.getBytes(StandardCharsets.UTF_8);
        assertThat(bytes.value("t", null, raw)).isSameAs(raw);
        assertThat(bytes.value("t", null, ENVELOPE)).isEqualTo(raw);
        assertThat(bytes.value("t", null, null)).isNull();
    }

    @Test
    void aJsonConverterValueIsWrittenBackAsTheSameEnvelopeNullsKept() {
        JsonConverter reader = new JsonConverter();
        reader.configure(Map.of("schemas.enable", "true"), false);
        SchemaAndValue read = reader.toConnectData("t", ENVELOPE.getBytes(StandardCharsets.UTF_8));
        assertThat(new String(bytes.value("t", read.schema(), read.value()), StandardCharsets.UTF_8)).isEqualTo(ENVELOPE);
    }

    @Test
    void aValueWithoutSchemaNamesTheConverterSetting() {
        assertThatThrownBy(() -> bytes.value("t", null, Map.of("id", 7)))
                .isInstanceOf(DataException.class).hasMessageContaining("schemas.enable=true");
    }
}
