package dev.tidemark.tests;

import java.nio.file.Path;

/** {@link AbstractSinkCrashIT} against a SQLite file target. */
class SqliteSinkCrashIT extends AbstractSinkCrashIT {
    @Override
    SinkTarget openTarget(Path dir) {
        return SinkTarget.sqlite(dir.resolve("crash-target.db"));
    }
}
