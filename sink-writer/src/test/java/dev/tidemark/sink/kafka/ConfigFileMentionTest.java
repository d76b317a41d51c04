package dev.tidemark.sink.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConfigFileMentionTest {
    @Test
    void everyPlaceholderBecomesThePipelineFile() {
        assertThat(ConfigFileMention.fill("replay into it with `tidemark sink --config F --replay-from earliest`, or repair it with "
                + "`tidemark reconcile --config F --repair --apply`", "/etc/tidemark/orders.yaml"))
                .isEqualTo("replay into it with `tidemark sink --config /etc/tidemark/orders.yaml --replay-from earliest`, or repair it with "
                        + "`tidemark reconcile --config /etc/tidemark/orders.yaml --repair --apply`");
        assertThat(ConfigFileMention.fill("then `tidemark reconcile --config <pipeline file> --repair --apply`)", "p.yaml"))
                .isEqualTo("then `tidemark reconcile --config p.yaml --repair --apply`)");
    }

    @Test
    void aPathWithASpaceIsQuotedAndAnUnknownFileLeavesTheMessage() {
        assertThat(ConfigFileMention.fill("`tidemark sink --config F --accept-retention-gap`", "my dir/p.yaml"))
                .isEqualTo("`tidemark sink --config 'my dir/p.yaml' --accept-retention-gap`");
        assertThat(ConfigFileMention.fill("`tidemark sink --config F`", null)).isEqualTo("`tidemark sink --config F`");
        assertThat(ConfigFileMention.fill("--config FOO stays", "p.yaml")).isEqualTo("--config FOO stays");
    }
}
