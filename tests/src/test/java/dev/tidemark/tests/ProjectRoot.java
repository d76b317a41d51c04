package dev.tidemark.tests;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository root a test runs under: the nearest folder at or above the working directory holding event/pom.xml. */
final class ProjectRoot {
    private ProjectRoot() {
    }

    static Path find() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve("event").resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no project root (a folder holding event/pom.xml) above " + Path.of("").toAbsolutePath());
    }
}
