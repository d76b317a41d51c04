package dev.tidemark.tests.reconcile;

class SqliteToPostgresReconcileIT extends AbstractReconcileIT {
    @Override
    Side source() {
        return Side.SQLITE;
    }

    @Override
    Side target() {
        return Side.POSTGRESQL;
    }
}
