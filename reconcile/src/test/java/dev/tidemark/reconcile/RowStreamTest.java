package dev.tidemark.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemark.reconcile.RowFormat.KeyHash;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class RowStreamTest {

    @Test
    void handsOutEveryRowInOrderThroughTheBoundedQueue() throws Exception {
        long rows = 20L * RowStream.BATCH + 7; // more than the queue holds at once
        AtomicLong progress = new AtomicLong();
        try (SideThreads threads = new SideThreads("t");
             RowStream<KeyHash> s = RowStream.start(threads, "source", "public.t", new RowFormat.IntegerKeys(), out -> {
                 for (long k = 0; k < rows; k++) {
                     out.accept(new KeyHash(k, k * 31));
                 }
             }, progress::set)) {
            long n = 0;
            for (KeyHash r = s.next(); r != null; r = s.next()) {
                assertThat(r).isEqualTo(new KeyHash(n, n * 31));
                n++;
            }
            assertThat(n).isEqualTo(rows);
            s.finish();
            assertThat(progress.get()).isEqualTo(20L * RowStream.BATCH); // after each full batch
        }
    }

    @Test
    void aKeyThatDoesNotAscendFailsTheStreamNamingBothKeys() {
        try (SideThreads threads = new SideThreads("t");
             RowStream<KeyHash> s = RowStream.start(threads, "target", "orders", new RowFormat.IntegerKeys(), out -> {
                 out.accept(new KeyHash(5, 0));
                 out.accept(new KeyHash(5, 1));
             }, n -> { })) {
            assertThatThrownBy(() -> {
                while (s.next() != null) {
                    // drain
                }
            }).isInstanceOf(IllegalStateException.class)
                    .hasMessage("the target returned key 5 after 5 for table orders: keys must be unique and sorted");
        }
    }

    @Test
    void aReaderFailureIsThrownAsItWas() {
        SQLException boom = new SQLException("connection lost", "08006");
        try (SideThreads threads = new SideThreads("t");
             RowStream<KeyHash> s = RowStream.start(threads, "source", "orders", new RowFormat.IntegerKeys(), out -> {
                 out.accept(new KeyHash(1, 0));
                 throw boom;
             }, n -> { })) {
            assertThatThrownBy(() -> {
                while (s.next() != null) {
                    // drain
                }
            }).isSameAs(boom);
        }
    }

    @Test
    void closingEarlyStopsAReaderThatHasMoreRows() throws Exception {
        AtomicBoolean readerEnded = new AtomicBoolean();
        try (SideThreads threads = new SideThreads("t")) {
            RowStream<KeyHash> s = RowStream.start(threads, "source", "orders", new RowFormat.IntegerKeys(), out -> {
                try {
                    for (long k = 0; ; k++) {
                        out.accept(new KeyHash(k, 0));
                    }
                } finally {
                    readerEnded.set(true);
                }
            }, n -> { });
            assertThat(s.next()).isEqualTo(new KeyHash(0, 0));
            s.close(); // returns only once the reader has given up
            s.close();
            assertThat(readerEnded).isTrue();
        }
    }
}
