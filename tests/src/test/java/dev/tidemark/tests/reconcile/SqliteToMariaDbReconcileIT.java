package dev.tidemark.tests.reconcile;

class SqliteToMariaDbReconcileIT extends AbstractReconcileIT {
    @Override
    Side source() {
        return Side.SQLITE;
    }

    @Override
    Side target() {
        return Side.MARIADB;
    }
}
