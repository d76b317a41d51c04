package dev.tidemark.tests.sink;

class PostgresPoisonEventIT extends AbstractPoisonEventIT {
    @Override
    TargetDatabase target() throws Exception {
        return TargetDatabase.postgres();
    }

    /** The machine's PostgreSQL trusts local connections, so a password in the URL is accepted and ignored. */
    @Override
    String sinkUrl() {
        return target.jdbcUrl() + "?password=" + CANARY;
    }
}
