package dev.tidemark.event;

import java.nio.charset.StandardCharsets;

/** Hand-written Debezium envelopes in Kafka Connect's JsonConverter shape (schemas enabled). */
public final class Envelopes {
    private Envelopes() {
    }

    public static byte[] key(long id) {
        return ("{\"schema\":{\"type\":\"struct\",\"fields\":[{\"type\":\"int64\",\"optional\":false,\"field\":\"id\"}],"
                + "\"optional\":false,\"name\":\"tm.public.orders.Key\"},\"payload\":{\"id\":" + id + "}}").getBytes(StandardCharsets.UTF_8);
    }

    private static final String ROW_SCHEMA = "{\"type\":\"struct\",\"fields\":["
            + "{\"type\":\"int64\",\"optional\":false,\"field\":\"id\"},"
            + "{\"type\":\"string\",\"optional\":true,\"field\":\"customer\"},"
            + "{\"type\":\"bytes\",\"optional\":true,\"name\":\"org.apache.kafka.connect.data.Decimal\",\"version\":1,"
            + "\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"12\"},\"field\":\"amount\"},"
            + "{\"type\":\"string\",\"optional\":true,\"name\":\"io.debezium.time.ZonedTimestamp\",\"version\":1,\"field\":\"placed_at\"},"
            + "{\"type\":\"int64\",\"optional\":true,\"name\":\"io.debezium.time.MicroTimestamp\",\"version\":1,\"field\":\"local_at\"},"
            + "{\"type\":\"boolean\",\"optional\":true,\"field\":\"flag\"}"
            + "],\"optional\":true,\"name\":\"tm.public.orders.Value\",\"field\":\"%s\"}";

    private static String envelopeSchema() {
        return "{\"type\":\"struct\",\"fields\":[" + ROW_SCHEMA.formatted("before") + "," + ROW_SCHEMA.formatted("after") + ","
                + "{\"type\":\"struct\",\"fields\":[{\"type\":\"string\",\"optional\":false,\"field\":\"connector\"},"
                + "{\"type\":\"string\",\"optional\":false,\"field\":\"schema\"},{\"type\":\"string\",\"optional\":false,\"field\":\"table\"},"
                + "{\"type\":\"int64\",\"optional\":true,\"field\":\"lsn\"}],\"optional\":false,\"field\":\"source\"},"
                + "{\"type\":\"string\",\"optional\":false,\"field\":\"op\"},{\"type\":\"int64\",\"optional\":true,\"field\":\"ts_ms\"}],"
                + "\"optional\":false,\"name\":\"tm.public.orders.Envelope\"}";
    }

    /** A row JSON: amount is base64 of the unscaled value. */
    public static String row(long id, String customer, String amountBase64, String placedAt, Long localMicros, Boolean flag) {
        return "{\"id\":" + id + ",\"customer\":" + (customer == null ? "null" : "\"" + customer.replace("\"", "\\\"") + "\"")
                + ",\"amount\":" + (amountBase64 == null ? "null" : "\"" + amountBase64 + "\"")
                + ",\"placed_at\":" + (placedAt == null ? "null" : "\"" + placedAt + "\"")
                + ",\"local_at\":" + localMicros + ",\"flag\":" + flag + "}";
    }

    public static byte[] value(String op, String before, String after, long lsn) {
        return ("{\"schema\":" + envelopeSchema() + ",\"payload\":{\"before\":" + before + ",\"after\":" + after
                + ",\"source\":{\"connector\":\"postgresql\",\"schema\":\"public\",\"table\":\"orders\",\"lsn\":" + lsn + "},"
                + "\"op\":\"" + op + "\",\"ts_ms\":1}}").getBytes(StandardCharsets.UTF_8);
    }
}
