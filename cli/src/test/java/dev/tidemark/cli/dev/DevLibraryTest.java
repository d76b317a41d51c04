package dev.tidemark.cli.dev;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DevLibraryTest {
    @Test
    void aMissingFolderIsNamedInOneLineWithWhereTheCommandRuns(@TempDir Path dir) {
        String line = DevLibrary.missing("demo", dir.resolve("dev-lib"));
        assertThat(line).doesNotContain("\n").contains(dir.resolve("dev-lib").toString(), "does not exist", "./tidemark demo");
    }

    @Test
    void aFolderPresentButNotOnTheClassPathPointsAtTheLauncher(@TempDir Path dir) {
        assertThat(DevLibrary.missing("dev-kafka", dir)).doesNotContain("\n").contains("not on the class path", "./tidemark dev-kafka");
    }

    @Test
    void theFolderIsBesideWhereTheCommandWasLoadedFrom() {
        assertThat(DevLibrary.folder().getFileName()).hasToString("dev-lib");
        assertThat(DevLibrary.folder().getParent().getFileName()).hasToString("target");
    }

    @Test
    void withDevenvOnTheClassPathTheServersLoad() {
        assertThat(DevLibrary.servers("demo")).isInstanceOf(DevenvServers.class);
    }
}
