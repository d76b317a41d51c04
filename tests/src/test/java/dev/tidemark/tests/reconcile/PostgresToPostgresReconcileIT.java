package dev.tidemark.tests.reconcile;

class PostgresToPostgresReconcileIT extends AbstractReconcileIT {
    @Override
    Side source() {
        return Side.POSTGRESQL;
    }

    @Override
    Side target() {
        return Side.POSTGRESQL;
    }
}
