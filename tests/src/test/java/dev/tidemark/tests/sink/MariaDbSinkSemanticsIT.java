package dev.tidemark.tests.sink;

class MariaDbSinkSemanticsIT extends AbstractSinkSemanticsIT {
    @Override
    TargetDatabase target() {
        return TargetDatabase.mariadb();
    }
}
