package dev.tidemark.tests.reconcile;

class MariaDbToSqliteReconcileIT extends AbstractReconcileIT {
    @Override
    Side source() {
        return Side.MARIADB;
    }

    @Override
    Side target() {
        return Side.SQLITE;
    }
}
