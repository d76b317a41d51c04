package dev.tidemark.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import sun.misc.Signal;

/**
 * Turns SIGTERM and SIGINT into a request to stop, so the command can drain, commit and return its own exit code
 * (a JVM shutdown hook could only exit with 143). A second signal while stopping is ignored. From the request on,
 * the libraries' own logging (Debezium, Kafka clients, JDBC drivers) is switched off: what they say while being
 * stopped (a snapshot cut short, interrupted threads) is the stop itself, not news; Tidemark's own lines stay.
 */
final class Termination {
    private static final String[] LIBRARIES = {"io.debezium", "org.apache.kafka", "org.postgresql", "org.sqlite", "org.mariadb"};
    private final CountDownLatch requested = new CountDownLatch(1);
    private volatile String signal;

    static Termination install() {
        return install(() -> { });
    }

    /** Also runs {@code onRequest} (once, on the signal thread), e.g. to interrupt a thread blocked in a start-up. */
    static Termination install(Runnable onRequest) {
        Termination t = new Termination();
        sun.misc.SignalHandler handler = s -> {
            if (t.requested.getCount() > 0) {
                t.signal = s.getName();
                quietLibraries();
                t.requested.countDown();
                onRequest.run();
            }
        };
        Signal.handle(new Signal("TERM"), handler);
        Signal.handle(new Signal("INT"), handler);
        return t;
    }

    boolean awaitRequest(long millis) throws InterruptedException {
        return requested.await(millis, TimeUnit.MILLISECONDS);
    }

    boolean isRequested() {
        return requested.getCount() == 0;
    }

    /** True when the stop came from Ctrl-C (SIGINT), not SIGTERM. */
    boolean byCtrlC() {
        return "INT".equals(signal);
    }

    private static void quietLibraries() {
        if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext context) {
            for (String name : LIBRARIES) {
                context.getLogger(name).setLevel(ch.qos.logback.classic.Level.OFF);
            }
        }
    }
}
