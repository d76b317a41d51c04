package dev.tidemark.tests.sink;

class PostgresScaleOutIT extends AbstractScaleOutIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.postgres();
    }
}
