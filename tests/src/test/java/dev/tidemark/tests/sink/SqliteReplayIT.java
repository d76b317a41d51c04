package dev.tidemark.tests.sink;

class SqliteReplayIT extends AbstractReplayIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.sqlite();
    }
}
