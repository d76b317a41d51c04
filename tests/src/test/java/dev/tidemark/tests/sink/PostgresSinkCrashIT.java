package dev.tidemark.tests.sink;

/** {@link AbstractSinkCrashIT} against a fresh database on the machine's PostgreSQL (127.0.0.1:5432). */
class PostgresSinkCrashIT extends AbstractSinkCrashIT {
    @Override
    TargetDatabase target() {
        return TargetDatabase.postgres();
    }
}
