package dev.tidemark.tests.sink;

/** {@link AbstractSinkCrashIT} against a fresh database on the machine's MariaDB (127.0.0.1:3306). */
class MariaDbSinkCrashIT extends AbstractSinkCrashIT {
    @Override
    TargetDatabase target() {
        return TargetDatabase.mariadb();
    }
}
