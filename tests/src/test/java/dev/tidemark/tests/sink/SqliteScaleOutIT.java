package dev.tidemark.tests.sink;

class SqliteScaleOutIT extends AbstractScaleOutIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.sqlite();
    }
}
