package dev.tidemark.tests.sink;

/** {@link AbstractSinkCrashIT} against a SQLite file. */
class SqliteSinkCrashIT extends AbstractSinkCrashIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.sqlite();
    }
}
