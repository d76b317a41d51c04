package dev.tidemark.cli.dev;

import dev.tidemark.devenv.EmbeddedEnvironment;
import dev.tidemark.devenv.LocalKafka;
import java.nio.file.Path;
import java.util.List;

/**
 * {@link DevServers} from {@code devenv}: the only class of the command that names it. Loaded through
 * {@link java.util.ServiceLoader} by {@link DevLibrary}, after it checked that {@code devenv} is on the class path.
 */
public final class DevenvServers implements DevServers {
    @Override
    public Environment environment(String tempPrefix, String kafkaBootstrap) throws Exception {
        EmbeddedEnvironment env = EmbeddedEnvironment.start(tempPrefix, kafkaBootstrap);
        return new Environment() {
            @Override
            public List<String> describe() {
                return env.describe();
            }

            @Override
            public String jdbcUrl(String database) {
                return env.postgres().jdbcUrl(database);
            }

            @Override
            public String user() {
                return env.postgres().user();
            }

            @Override
            public String kafkaBootstrap() {
                return env.kafkaBootstrap();
            }

            @Override
            public Path workDir() {
                return env.workDir();
            }

            @Override
            public void close() {
                env.close();
            }
        };
    }

    @Override
    public Broker broker(Path folder, int port) {
        LocalKafka kafka = LocalKafka.start(folder, port);
        return new Broker() {
            @Override
            public String bootstrapServers() {
                return kafka.bootstrapServers();
            }

            @Override
            public long startupMillis() {
                return kafka.startupMillis();
            }

            @Override
            public boolean isAlive() {
                return kafka.isAlive();
            }

            @Override
            public void close() {
                kafka.close();
            }
        };
    }
}
