package dev.tidemark.connector.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineConfigDescribeTest {
    private static final String YAML = "name: p\nsource:\n  url: jdbc:postgresql://h/db\n  tables: [public.orders]\n%s"
            + "kafka:\n  bootstrapServers: k:9092\ntarget:\n  url: jdbc:sqlite:t.db\n";

    @Test
    void noPasswordIsSaidSo() {
        String line = PipelineConfigParser.parse(YAML.formatted(""), "p.yaml", Path.of("."), Map.<String, String>of()::get).describe();
        assertThat(line).contains("user postgres without password").doesNotContain("[hidden]");
    }

    @Test
    void aPasswordIsHidden() {
        String line = PipelineConfigParser.parse(YAML.formatted("  password: s3cret\n"), "p.yaml", Path.of("."), Map.<String, String>of()::get)
                .describe();
        assertThat(line).contains("user postgres password [hidden]").doesNotContain("s3cret");
    }
}
