package dev.tidemark.tests.sink;

class PostgresSinkSemanticsIT extends AbstractSinkSemanticsIT {
    @Override
    TargetDatabase target() {
        return TargetDatabase.postgres();
    }
}
