package dev.tidemark.connect;

import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.sink.jdbc.SinkOptions;
import java.util.Objects;
import org.apache.kafka.common.config.types.Password;

/**
 * The parsed settings of one connector (see {@link ConnectSinkConfig}): immutable; {@link #toString()} masks the URL's
 * credentials and never shows the password.
 *
 * @param targetUrl the JDBC URL of the target
 * @param user      the target user, or null
 * @param password  the target password (prints {@code [hidden]})
 * @param options   how rows are written (the pipeline name decides where offsets are stored)
 * @param batchSize most records per target transaction
 * @param poison    what the task does with a record it cannot apply, as configured
 */
public record ConnectSinkSettings(String targetUrl, String user, Password password, SinkOptions options, int batchSize,
                                  PoisonRoute poison) {
    public ConnectSinkSettings {
        Objects.requireNonNull(targetUrl, "targetUrl");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(poison, "poison");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be at least 1");
        }
    }

    @Override
    public String toString() {
        return "ConnectSinkSettings[target=" + UrlMask.mask(targetUrl) + ", user=" + user + ", password=[hidden], pipeline="
                + options.pipeline() + ", batchSize=" + batchSize + ", poison=" + poison + "]";
    }
}
