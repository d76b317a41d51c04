package dev.tidemark.tests.compare;

import dev.tidemark.compare.CompareResult;
import dev.tidemark.compare.CompareRun;
import dev.tidemark.compare.Scenario;
import dev.tidemark.connector.config.Secret;
import dev.tidemark.tests.TestInfrastructure;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs a compare scenario on the shared test servers, in a fresh database with its own slot, topics and group. */
final class CompareFixture {
    private static final Logger log = LoggerFactory.getLogger(CompareFixture.class);

    private CompareFixture() {
    }

    static CompareResult run(Scenario scenario, Path dir, String hint) throws Exception {
        TestInfrastructure.PgServer pg = TestInfrastructure.postgres();
        String database = TestInfrastructure.newDatabase(hint);
        CompareRun.Settings settings = new CompareRun.Settings(database, pg.jdbcUrl(database), pg.user(), Secret.of(pg.password()),
                TestInfrastructure.kafkaBootstrap(), dir, dir.resolve("state"), Duration.ofSeconds(60));
        return new CompareRun(settings, line -> log.info("{}: {}", database, line), CompareRun.Pacing.uninterrupted()).run(scenario);
    }
}
