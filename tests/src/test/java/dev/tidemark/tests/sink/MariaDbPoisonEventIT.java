package dev.tidemark.tests.sink;

class MariaDbPoisonEventIT extends AbstractPoisonEventIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.mariadb();
    }
}
