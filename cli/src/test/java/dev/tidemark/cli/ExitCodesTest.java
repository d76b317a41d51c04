package dev.tidemark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.connector.config.ConfigException;
import dev.tidemark.jdbc.Failure;
import dev.tidemark.jdbc.SinkException;
import dev.tidemark.jdbc.UsageException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which failure ends a command with which exit code: 2 only when the request itself is wrong. */
class ExitCodesTest {

    @Test
    void aRejectedConfigurationOrCommandLineIsBadUsage() {
        assertThat(ExitCodes.of(new ConfigException("pipeline.yaml", List.of("target.url: missing")))).isEqualTo(ExitCodes.USAGE);
        assertThat(ExitCodes.of(new UsageException("--resnapshot and --accept-gap exclude each other: choose one")))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(ExitCodes.of(UsageException.of(new IllegalArgumentException("table items has no column x (given as cursor)"))))
                .isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void aFailureOfTheDataAtRunTimeIsNeverBadUsage() {
        assertThat(ExitCodes.of(new IllegalArgumentException("not a serialised cursor position: 'x'"))).isEqualTo(ExitCodes.RUNTIME);
        assertThat(ExitCodes.of(new IllegalStateException("truncate inside a change run"))).isEqualTo(ExitCodes.RUNTIME);
        assertThat(ExitCodes.of(new NumberFormatException("For input string: \"x\""))).isEqualTo(ExitCodes.RUNTIME);
    }

    @Test
    void databaseBrokerAndIoFailuresAreRuntimeFailures() {
        assertThat(ExitCodes.of(new SQLException("connection refused", "08001"))).isEqualTo(ExitCodes.RUNTIME);
        assertThat(ExitCodes.of(new SinkException("table t: permission denied", null, new Failure.Fault(Failure.Cause.PRIVILEGE))))
                .isEqualTo(ExitCodes.RUNTIME);
        assertThat(ExitCodes.of(new UncheckedIOException(new java.io.IOException("disk full")))).isEqualTo(ExitCodes.RUNTIME);
    }
}
