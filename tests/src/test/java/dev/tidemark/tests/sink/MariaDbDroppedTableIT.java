package dev.tidemark.tests.sink;

class MariaDbDroppedTableIT extends AbstractDroppedTableIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.mariadb();
    }
}
