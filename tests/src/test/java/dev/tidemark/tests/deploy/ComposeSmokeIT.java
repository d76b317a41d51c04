package dev.tidemark.tests.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code docker compose up} of the repository's {@code docker-compose.yml} on a real Docker engine: the sample rows of
 * {@code public.orders} reach the target, then an update, an insert and a delete made in the source PostgreSQL do
 * too. Needs a Docker engine ({@code docker info}) and runs only in the Maven profile {@code docker-engine}; without an
 * engine it fails with the reason. The passwords are {@code .env.example}'s.
 * Everything it starts is removed afterwards, volumes included ({@code down -v}), under its own project name.
 */
class ComposeSmokeIT {
    private static final String PROJECT = "tidemark-smoke";
    private final ComposeProject project = ComposeProject.find();
    private List<String> compose;

    @Test
    void changesMadeInTheSourceReachTheTarget() {
        ComposeProject.Result info = project.run(Duration.ofSeconds(20), "docker", "info", "--format", "{{.ServerVersion}}");
        assertThat(info.exit()).as("no Docker engine answers here (docker info: " + info.output().strip().replace('\n', ' ')
                + "); this test runs only with -Pdocker-engine; without an engine ComposeFileTest validates the file").isZero();
        compose = composeCommand();

        ComposeProject.Result up = compose(Duration.ofMinutes(20), "up", "-d", "--build");
        assertThat(up.exit()).as("docker compose up:%n%s", up.output()).isZero();

        await("the 5 rows of deploy/postgres/init.sql in the target's orders table").atMost(Duration.ofMinutes(5))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> target("SELECT count(*) FROM public.orders"), "5"::equals);

        ComposeProject.Result change = compose(Duration.ofSeconds(60), "exec", "-T", "postgres", "psql", "-U", "postgres", "-v", "ON_ERROR_STOP=1",
                "-c", "UPDATE public.orders SET qty = 42 WHERE id = 1",
                "-c", "INSERT INTO public.orders (id, item, qty, price) VALUES (6, 'lantern', 1, 31.00)",
                "-c", "DELETE FROM public.orders WHERE id = 2");
        assertThat(change.exit()).as(change.output()).isZero();
        await("the update, insert and delete in the target").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                .until(() -> target("SELECT string_agg(id || ':' || qty, ',' ORDER BY id) FROM public.orders"), "1:42,3:1,4:3,5:4,6:1"::equals);
        await("the sidecar's container healthcheck (GET /health) to report healthy").atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> project.run(Duration.ofSeconds(20), "docker", "inspect", "--format", "{{.State.Health.Status}}",
                        compose(Duration.ofSeconds(20), "ps", "-q", "tidemark").output().strip()).output().strip(), "healthy"::equals);
    }

    @AfterEach
    void down() {
        if (compose != null) {
            compose(Duration.ofMinutes(3), "down", "-v", "--remove-orphans");
        }
    }

    private String target(String sql) {
        ComposeProject.Result r = compose(Duration.ofSeconds(30), "exec", "-T", "target", "psql", "-U", "postgres", "-d", "replica", "-tAc", sql);
        return r.exit() == 0 ? r.output().strip() : "psql failed: " + r.output().strip();
    }

    private ComposeProject.Result compose(Duration limit, String... args) {
        List<String> cmd = new ArrayList<>(compose);
        cmd.addAll(List.of("-p", PROJECT, "--env-file", ".env.example", "-f", "docker-compose.yml"));
        cmd.addAll(List.of(args));
        return project.run(limit, cmd.toArray(String[]::new));
    }

    /** {@code docker compose} (the plugin) where it exists, else Debian's {@code docker-compose}. */
    private List<String> composeCommand() {
        return project.run(Duration.ofSeconds(20), "docker", "compose", "version").exit() == 0
                ? List.of("docker", "compose") : List.of("docker-compose");
    }
}
