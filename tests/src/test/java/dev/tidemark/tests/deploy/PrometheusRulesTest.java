package dev.tidemark.tests.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/prometheus/alerts.yml} as Prometheus itself reads it: {@code promtool check rules} accepts every rule,
 * and {@code promtool test rules} runs {@code alerts.test.yml}, where each alert fires on its input series and stays
 * silent on the others. Without promtool (Debian's {@code prometheus} package) the test fails, naming the package.
 */
class PrometheusRulesTest {
    static final Path PROMTOOL = Path.of("/usr/bin/promtool");
    private final ComposeProject project = ComposeProject.find();

    @Test
    void promtoolAcceptsTheRules() {
        ComposeProject.Result check = promtool("check", "rules", "deploy/prometheus/alerts.yml");
        assertThat(check.exit()).as("promtool check rules exit code; output:%n%s", check.output()).isZero();
        assertThat(check.output()).contains("Checking deploy/prometheus/alerts.yml", "SUCCESS: 7 rules found");
    }

    @Test
    void everyAlertFiresOnItsSeriesAndNotOnTheOthers() {
        ComposeProject.Result test = promtool("test", "rules", "deploy/prometheus/alerts.test.yml");
        assertThat(test.exit()).as("promtool test rules exit code; output:%n%s", test.output()).isZero();
        assertThat(test.output()).contains("Unit Testing:  deploy/prometheus/alerts.test.yml", "SUCCESS").doesNotContain("FAILED");
    }

    private ComposeProject.Result promtool(String... args) {
        assertThat(Files.isExecutable(PROMTOOL)).as(PROMTOOL + " is not installed (.ci/run installs it: apt-get install prometheus): "
                + "the alerting rules cannot be checked here").isTrue();
        String[] cmd = new String[args.length + 1];
        cmd[0] = PROMTOOL.toString();
        System.arraycopy(args, 0, cmd, 1, args.length);
        return project.run(Duration.ofSeconds(60), cmd);
    }
}
