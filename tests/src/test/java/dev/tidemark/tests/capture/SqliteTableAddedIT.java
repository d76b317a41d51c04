package dev.tidemark.tests.capture;

import dev.tidemark.tests.sink.TargetDatabase;

/** {@link AbstractTableAddedIT} into a SQLite target. */
class SqliteTableAddedIT extends AbstractTableAddedIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.sqlite();
    }
}
