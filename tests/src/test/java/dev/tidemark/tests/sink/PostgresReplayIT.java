package dev.tidemark.tests.sink;

class PostgresReplayIT extends AbstractReplayIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.postgres();
    }
}
