package dev.tidemark.cli.dev;

import java.nio.file.Path;
import java.util.List;

/**
 * The throwaway servers of the dev commands ({@code demo}, {@code compare}, {@code dev-kafka}), without naming the
 * classes that start them: those ({@code devenv} and the Kafka broker) ship in {@code cli/target/dev-lib}, which the
 * launcher puts on the class path only for the dev commands. Get one with {@link DevLibrary#servers}; every other
 * command loads no class of {@code devenv}.
 */
public interface DevServers {
    /** Starts a PostgreSQL with logical decoding and, unless {@code kafkaBootstrap} is given, a single-node Kafka. */
    Environment environment(String tempPrefix, String kafkaBootstrap) throws Exception;

    /** Starts a single-node KRaft broker on 127.0.0.1:{@code port} in {@code folder} (deleted on close). */
    Broker broker(Path folder, int port) throws Exception;

    /** A running PostgreSQL and Kafka; {@link #close} stops both and removes their temporary folder. */
    interface Environment extends AutoCloseable {
        /** One line per server, for the narration. */
        List<String> describe();

        String jdbcUrl(String database);

        String user();

        String kafkaBootstrap();

        /** The temporary folder everything started lives in. */
        Path workDir();

        @Override
        void close();
    }

    /** A running broker in a child JVM; {@link #close} stops it and deletes its folder. */
    interface Broker extends AutoCloseable {
        String bootstrapServers();

        long startupMillis();

        boolean isAlive();

        @Override
        void close();
    }
}
