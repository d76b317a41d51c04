package dev.tidemark.connector.debezium;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The signature of {@link DdlTrigger}'s messages: their content is {@code md5(key || json)} in 32 hexadecimal digits,
 * then the JSON. Any user of the source database may write a logical decoding message with the same prefix; only the
 * trigger knows the key (a table only its owner may read), so a message without the right signature is not
 * Tidemark's and is ignored. Pure.
 */
final class DdlSignature {
    private static final int HEX = 32;

    private DdlSignature() {
    }

    /** The JSON of a message signed with {@code key}, or empty when the signature is missing or wrong. */
    static Optional<byte[]> verify(String key, byte[] content) {
        if (key == null || content == null || content.length < HEX) {
            return Optional.empty();
        }
        byte[] json = Arrays.copyOfRange(content, HEX, content.length);
        byte[] given = Arrays.copyOfRange(content, 0, HEX);
        byte[] expected = sign(key, json).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(given, expected) ? Optional.of(json) : Optional.empty();
    }

    /** {@code md5(key || json)} in lower-case hexadecimal, as PostgreSQL's {@code md5(text)} gives it. */
    static String sign(String key, byte[] json) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            md5.update(key.getBytes(StandardCharsets.UTF_8));
            md5.update(json);
            return HexFormat.of().formatHex(md5.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is not available", e);
        }
    }
}
