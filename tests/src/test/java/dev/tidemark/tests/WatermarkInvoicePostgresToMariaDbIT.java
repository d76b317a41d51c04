package dev.tidemark.tests;

import dev.tidemark.tests.sink.TargetDatabase;

/** The Invoice demonstration from a PostgreSQL source into MariaDB targets (control table in each target). */
class WatermarkInvoicePostgresToMariaDbIT extends WatermarkInvoicePostgresIT {
    @Override
    TargetDatabase newTarget() {
        return TargetDatabase.mariadb();
    }
}
