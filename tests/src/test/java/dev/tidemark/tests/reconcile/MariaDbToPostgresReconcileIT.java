package dev.tidemark.tests.reconcile;

class MariaDbToPostgresReconcileIT extends AbstractReconcileIT {
    @Override
    Side source() {
        return Side.MARIADB;
    }

    @Override
    Side target() {
        return Side.POSTGRESQL;
    }
}
