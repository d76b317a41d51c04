package dev.tidemark.tests.sink;

class SqliteSinkSemanticsIT extends AbstractSinkSemanticsIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.sqlite();
    }
}
