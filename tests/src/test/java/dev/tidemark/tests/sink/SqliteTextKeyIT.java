package dev.tidemark.tests.sink;

class SqliteTextKeyIT extends AbstractTextKeyIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.sqlite();
    }
}
