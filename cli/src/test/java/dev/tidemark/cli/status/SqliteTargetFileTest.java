package dev.tidemark.cli.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SqliteTargetFileTest {
    @Test
    void theFileOfASqliteUrl() {
        assertThat(SqliteTargetFile.of("jdbc:sqlite:/tmp/x/target.db")).hasValue(Path.of("/tmp/x/target.db"));
        assertThat(SqliteTargetFile.of("jdbc:sqlite:rel/t.db")).hasValue(Path.of("rel/t.db"));
        assertThat(SqliteTargetFile.of("jdbc:sqlite:file:/tmp/t.db?mode=ro&cache=shared")).hasValue(Path.of("/tmp/t.db"));
    }

    @Test
    void noFileForOtherUrlsAndInMemoryDatabases() {
        assertThat(SqliteTargetFile.of("jdbc:sqlite::memory:")).isEmpty();
        assertThat(SqliteTargetFile.of("jdbc:sqlite:")).isEmpty();
        assertThat(SqliteTargetFile.of("jdbc:postgresql://h/db")).isEmpty();
    }
}
