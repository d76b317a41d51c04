package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.sink.kafka.ReplayFrom;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fresh SQLite target consuming the same topics from offset 0 ends identical to the first target; replaying the
 * whole topic into the first target again changes nothing (same key+checksum digest, positions included).
 */
class CdcReplayIT {
    static final TableId T = new TableId("public", "events");

    @TempDir
    Path dir;

    @Test
    void freshTargetFromOffsetZeroEqualsTheFirstAndReplayIsIdempotent() throws Exception {
        try (CdcFixture f = new CdcFixture("replay", dir, List.of(T))) {
            f.sql("CREATE TABLE public.events (id bigint PRIMARY KEY, kind text, amount numeric(10,3), at timestamptz)",
                    "INSERT INTO events SELECT g, 'k' || (g % 7), g / 3.0, now() - g * interval '1 minute' FROM generate_series(1, 300) g");
            Sidecar live = f.startPipeline();
            f.awaitEqual(live, T, "target.db", "id");
            f.sql("UPDATE events SET kind = 'updated' WHERE id % 10 = 0",
                    "DELETE FROM events WHERE id % 15 = 0",
                    "INSERT INTO events SELECT g, 'new', g, now() FROM generate_series(301, 340) g",
                    "UPDATE events SET amount = amount * 2 WHERE id > 320");
            f.awaitEqual(live, T, "target.db", "id");
            live.close();
            String digest = TargetDigest.of(f.targetUrl("target.db"), "events");

            // a second pipeline name = a second offsets row owner and consumer group, reading from offset 0
            PipelineConfig fresh = f.config(f.name + "_fresh", "fresh.db");
            Sidecar replayer = f.start(fresh, false, true, new ReplayFrom.Stored());
            f.awaitEqual(replayer, T, "fresh.db", "id");
            replayer.close();
            assertThat(TargetDigest.of(f.targetUrl("fresh.db"), "events")).isEqualTo(digest);

            // full replay into the original target: nothing moves
            Sidecar again = f.start(f.config(f.name, "target.db"), false, true, new ReplayFrom.Earliest());
            TargetDigest.awaitOffsetsAtEnd(f.bootstrap, f.config(f.name, "target.db"), again);
            again.close();
            assertThat(TargetDigest.of(f.targetUrl("target.db"), "events")).isEqualTo(digest);
        }
    }
}
