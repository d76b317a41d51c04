package dev.tidemark.connector.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The deny-list decision for {@code source.debezium}: what passes, what is refused and why, per key. */
class DebeziumPassThroughTest {

    @Test
    void tuningMaskingAndColumnListsPass() {
        for (String key : List.of("column.mask.with.5.chars", "column.truncate.to.20.chars", "column.mask.hash.SHA-256.with.salt.x",
                "column.exclude.list", "column.include.list", "max.batch.size", "max.queue.size", "snapshot.fetch.size",
                "snapshot.select.statement.overrides", "database.sslmode", "errors.max.retries", "slot.max.retries")) {
            assertThat(DebeziumPassThrough.refusal(key, "x", false)).as(key).isEmpty();
        }
    }

    @Test
    void settingsTidemarkOwnsAreRefusedNamingTheKeyAndWhy() {
        assertThat(DebeziumPassThrough.refusal("slot.name", "other", false)).contains("Tidemark sets slot.name itself: set source.slot");
        assertThat(DebeziumPassThrough.refusal("event.converting.failure.handling.mode", "warn", false)).hasValueSatisfying(
                why -> assertThat(why).startsWith("Tidemark sets event.converting.failure.handling.mode itself: ").contains("NULL"));
        assertThat(DebeziumPassThrough.refusal("offset.flush.interval.ms", "60000", false))
                .hasValueSatisfying(why -> assertThat(why).startsWith("Tidemark sets offset.* itself"));
        assertThat(DebeziumPassThrough.refusal("transforms.route.type", "x", false))
                .hasValueSatisfying(why -> assertThat(why).startsWith("Tidemark sets transforms* itself"));
        assertThat(DebeziumPassThrough.refusal("tidemarknumeric.type", "x", false)).isPresent();
        for (String key : List.of("name", "connector.class", "offset.storage", "publication.name", "plugin.name", "topic.prefix",
                "table.include.list", "converters", "key.converter", "value.converter.schemas.enable", "decimal.handling.mode",
                "skipped.operations", "tombstones.on.delete", "slot.drop.on.stop", "heartbeat.interval.ms", "heartbeat.action.query",
                "message.key.columns", "provide.transaction.metadata", "database.password", "signal.data.collection",
                "record.processing.order", "flush.lsn.source", "lsn.flush.mode", "offset.mismatch.strategy", "poll.interval.ms")) {
            assertThat(DebeziumPassThrough.refusal(key, "x", false)).as(key).hasValueSatisfying(why -> assertThat(why).contains(key.split("\\.")[0]));
        }
    }

    @Test
    void onlySnapshotModesCaptureCanResumeFromPass() {
        assertThat(DebeziumPassThrough.refusal("snapshot.mode", "no_data", false)).isEmpty();
        assertThat(DebeziumPassThrough.refusal("snapshot.mode", "initial", false)).isEmpty();
        assertThat(DebeziumPassThrough.refusal("snapshot.mode", "always", false))
                .contains("snapshot.mode always is not one Tidemark can resume safely; use one of [initial, no_data] "
                        + "(a re-snapshot is tidemark capture --resnapshot)");
        assertThat(DebeziumPassThrough.refusal("snapshot.mode", "when_needed", false)).isPresent();
    }

    @Test
    void columnListsAreRefusedWhenExcludeColumnsIsSetToo() {
        assertThat(DebeziumPassThrough.refusal("column.exclude.list", "public.t.c", true))
                .contains("source.excludeColumns is set too: list the columns in one place");
    }
}
