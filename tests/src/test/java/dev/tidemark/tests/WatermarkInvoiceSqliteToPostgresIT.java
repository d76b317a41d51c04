package dev.tidemark.tests;

import dev.tidemark.tests.sink.TargetDatabase;

/** The Invoice demonstration from a SQLite source into PostgreSQL targets (control table in each target). */
class WatermarkInvoiceSqliteToPostgresIT extends WatermarkInvoiceSqliteIT {
    @Override
    TargetDatabase newTarget() {
        return TargetDatabase.postgres();
    }
}
