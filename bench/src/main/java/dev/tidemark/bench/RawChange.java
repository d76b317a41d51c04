package dev.tidemark.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;

/**
 * One change as a hand-written consumer of the bench table sees it: the key and, unless it is a delete, the row.
 * {@link Decoder} is what the raw baselines do per record: {@code ObjectMapper.readTree} of the whole envelope
 * (schema included), then the six known fields of {@code payload.after} (or the key of {@code payload.before} for a
 * delete), decimals from base64 unscaled bytes at the known scale 2, timestamps with {@code Instant.parse}. It knows
 * the table at compile time and does not interpret the embedded schema.
 */
record RawChange(long id, boolean delete, BigDecimal amount, String note, Instant changedAt, boolean active, Integer quantity) {

    static RawChange deleteOf(long id) {
        return new RawChange(id, true, null, null, null, false, null);
    }

    /** Not thread-safe (one per consumer thread is the intended use, though ObjectMapper itself is). */
    static final class Decoder {
        private final ObjectMapper mapper = new ObjectMapper();

        /** Decodes a record's value into {@code collapsed} by key (the last change of a key wins; tombstones add nothing). */
        void collapse(byte[] value, Map<Long, RawChange> collapsed) throws IOException {
            RawChange c = decode(value);
            if (c != null) {
                collapsed.put(c.id(), c);
            }
        }

        /** The change in a record's value, or {@code null} for a tombstone (its delete came just before). */
        RawChange decode(byte[] value) throws IOException {
            if (value == null) {
                return null;
            }
            JsonNode payload = mapper.readTree(value).get("payload");
            String op = payload.get("op").asText();
            if (op.equals("d")) {
                return deleteOf(payload.get("before").get("id").asLong());
            }
            if (!op.equals("c") && !op.equals("u") && !op.equals("r")) {
                throw new IOException("unexpected op '" + op + "'");
            }
            JsonNode a = payload.get("after");
            JsonNode amount = a.get("amount");
            JsonNode changedAt = a.get("changed_at");
            JsonNode quantity = a.get("quantity");
            return new RawChange(a.get("id").asLong(), false,
                    amount.isNull() ? null : new BigDecimal(new BigInteger(Base64.getDecoder().decode(amount.asText())), 2),
                    a.get("note").asText(),
                    changedAt.isNull() ? null : Instant.parse(changedAt.asText()),
                    a.get("active").asBoolean(),
                    quantity.isNull() ? null : quantity.asInt());
        }
    }
}
