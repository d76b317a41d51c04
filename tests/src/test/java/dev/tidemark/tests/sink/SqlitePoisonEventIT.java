package dev.tidemark.tests.sink;

class SqlitePoisonEventIT extends AbstractPoisonEventIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.sqlite();
    }
}
