package dev.tidemark.tests.sink;

class SqliteDroppedTableIT extends AbstractDroppedTableIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.sqlite();
    }
}
