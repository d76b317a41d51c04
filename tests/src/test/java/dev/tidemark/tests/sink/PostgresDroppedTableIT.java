package dev.tidemark.tests.sink;

class PostgresDroppedTableIT extends AbstractDroppedTableIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.postgres();
    }
}
