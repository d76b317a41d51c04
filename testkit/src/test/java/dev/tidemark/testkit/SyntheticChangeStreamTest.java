package dev.tidemark.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tidemark.event.ChangeEvent;
import dev.tidemark.event.EnvelopeDecoder;
import dev.tidemark.event.EnvelopeEncoder;
import dev.tidemark.event.EventOrigin;
import dev.tidemark.event.SourcePosition;
import dev.tidemark.event.TableId;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SyntheticChangeStreamTest {
    static final TableId T = new TableId("public", "items");

    @Test
    void mixIsSeventyTwentyTenWithATombstoneAfterEveryDeleteAndKeysThatMakeSense() {
        SyntheticChangeStream s = new SyntheticChangeStream(T, 42, 200_000);
        Set<Object> live = new HashSet<>();
        long lastLsn = -1;
        ChangeEvent previous = null;
        for (int i = 0; i < 100_000; i++) {
            ChangeEvent e = s.next();
            Object id = e.key().get("id");
            if (e instanceof ChangeEvent.Delete d && d.tombstone()) {
                assertThat(previous).as("a tombstone follows its delete").isInstanceOf(ChangeEvent.Delete.class);
                assertThat(previous.key()).isEqualTo(d.key());
                assertThat(d.position()).isEqualTo(new SourcePosition.Unknown());
            } else {
                long lsn = ((SourcePosition.Lsn) e.position()).lsn();
                assertThat(lsn).as("positions grow").isGreaterThan(lastLsn);
                lastLsn = lsn;
                if (e instanceof ChangeEvent.Upsert u && u.op() == ChangeEvent.Op.CREATE) {
                    assertThat(live.add(id)).as("insert of a key that is not live: " + id).isTrue();
                } else if (e instanceof ChangeEvent.Upsert) {
                    assertThat(live).as("update of a live key").contains(id);
                } else {
                    assertThat(live.remove(id)).as("delete of a live key: " + id).isTrue();
                }
            }
            previous = e;
        }
        long[] c = s.counts();
        double changes = c[0] + c[1] + c[2];
        assertThat(c[0] / changes).isCloseTo(0.70, within(0.01));
        assertThat(c[1] / changes).isCloseTo(0.20, within(0.01));
        assertThat(c[2] / changes).isCloseTo(0.10, within(0.01));
        assertThat(c[3]).isEqualTo(c[2]);
        assertThat(s.liveKeys()).isEqualTo(live.size());
    }

    @Test
    void sameSeedSameStreamAndItSurvivesTheEnvelopeRoundTrip() {
        SyntheticChangeStream a = new SyntheticChangeStream(T, 7, 1_000);
        SyntheticChangeStream b = new SyntheticChangeStream(T, 7, 1_000);
        EnvelopeEncoder encoder = new EnvelopeEncoder("bench", "test", "db");
        EnvelopeDecoder decoder = new EnvelopeDecoder();
        for (int i = 0; i < 5_000; i++) {
            ChangeEvent e = a.next();
            assertThat(b.next()).isEqualTo(e);
            byte[] key = encoder.key(e, SyntheticChangeStream.SCHEMA);
            byte[] value = e instanceof ChangeEvent.Delete d && d.tombstone() ? EnvelopeEncoder.tombstone()
                    : encoder.value(e, SyntheticChangeStream.SCHEMA, 1L);
            ChangeEvent decoded = decoder.decode(new EventOrigin("t", 0, i, key), key, value);
            if (e instanceof ChangeEvent.Upsert) {
                assertThat(decoded).isEqualTo(e);
            } else {
                assertThat(decoded.key()).isEqualTo(e.key());
                assertThat(decoded.position()).isEqualTo(e.position());
            }
        }
    }
}
