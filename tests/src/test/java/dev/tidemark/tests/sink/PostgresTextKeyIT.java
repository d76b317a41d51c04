package dev.tidemark.tests.sink;

class PostgresTextKeyIT extends AbstractTextKeyIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.postgres();
    }
}
