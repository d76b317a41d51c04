package dev.tidemark.tests.sink;

class MariaDbReplayIT extends AbstractReplayIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.mariadb();
    }
}
