package dev.tidemark.tests.reconcile;

class PostgresToSqliteReconcileIT extends AbstractReconcileIT {
    @Override
    Side source() {
        return Side.POSTGRESQL;
    }

    @Override
    Side target() {
        return Side.SQLITE;
    }
}
