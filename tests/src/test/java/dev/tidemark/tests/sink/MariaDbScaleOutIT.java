package dev.tidemark.tests.sink;

class MariaDbScaleOutIT extends AbstractScaleOutIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.mariadb();
    }
}
