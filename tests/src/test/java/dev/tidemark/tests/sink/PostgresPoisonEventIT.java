package dev.tidemark.tests.sink;

class PostgresPoisonEventIT extends AbstractPoisonEventIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.postgres();
    }
}
