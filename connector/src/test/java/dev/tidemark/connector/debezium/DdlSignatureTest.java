package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DdlSignatureTest {
    private static final String KEY = "0123456789abcdef0123456789abcdef";
    private static final byte[] JSON = "{\"v\":1,\"pipeline\":\"p\"}".getBytes(StandardCharsets.UTF_8);

    private static byte[] signed(String key, byte[] json) {
        byte[] sig = DdlSignature.sign(key, json).getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[sig.length + json.length];
        System.arraycopy(sig, 0, out, 0, sig.length);
        System.arraycopy(json, 0, out, sig.length, json.length);
        return out;
    }

    @Test
    void aMessageSignedWithTheKeyGivesItsJson() {
        assertThat(DdlSignature.verify(KEY, signed(KEY, JSON))).hasValueSatisfying(j -> assertThat(j).isEqualTo(JSON));
    }

    @Test
    void theSignatureIsPostgresMd5OfKeyAndJson() {
        // md5('abc') is the RFC 1321 test vector; key and JSON are one byte string
        assertThat(DdlSignature.sign("k", "x".getBytes(StandardCharsets.UTF_8))).isEqualTo(DdlSignature.sign("kx", new byte[0]));
        assertThat(DdlSignature.sign("", "abc".getBytes(StandardCharsets.UTF_8))).isEqualTo("900150983cd24fb0d6963f7d28e17f72");
    }

    @Test
    void anotherKeyAChangedJsonOrNoSignatureIsRefused() {
        byte[] tampered = signed(KEY, JSON);
        tampered[tampered.length - 2] = 'q';

        assertThat(DdlSignature.verify("another", signed(KEY, JSON))).isEmpty();
        assertThat(DdlSignature.verify(KEY, tampered)).isEmpty();
        assertThat(DdlSignature.verify(KEY, JSON)).isEmpty();
        assertThat(DdlSignature.verify(null, signed(KEY, JSON))).isEmpty();
    }
}
