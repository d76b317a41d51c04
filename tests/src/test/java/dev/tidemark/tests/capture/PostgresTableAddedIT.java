package dev.tidemark.tests.capture;

import dev.tidemark.tests.sink.TargetDatabase;

/** {@link AbstractTableAddedIT} into a PostgreSQL target (the machine's server). */
class PostgresTableAddedIT extends AbstractTableAddedIT {
    @Override
    TargetDatabase target() {
        return TargetDatabase.postgres();
    }
}
