package dev.tidemark.tests.reconcile;

class PostgresToMariaDbReconcileIT extends AbstractReconcileIT {
    @Override
    Side source() {
        return Side.POSTGRESQL;
    }

    @Override
    Side target() {
        return Side.MARIADB;
    }
}
