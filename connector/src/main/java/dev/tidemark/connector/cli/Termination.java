package dev.tidemark.connector.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import sun.misc.Signal;

/**
 * Turns SIGTERM and SIGINT into a request to stop, so the command can drain, commit and return its own exit code
 * (a JVM shutdown hook could only exit with 143). A second signal while stopping is ignored.
 */
final class Termination {
    private final CountDownLatch requested = new CountDownLatch(1);

    static Termination install() {
        Termination t = new Termination();
        Signal.handle(new Signal("TERM"), s -> t.requested.countDown());
        Signal.handle(new Signal("INT"), s -> t.requested.countDown());
        return t;
    }

    boolean awaitRequest(long millis) throws InterruptedException {
        return requested.await(millis, TimeUnit.MILLISECONDS);
    }

    boolean isRequested() {
        return requested.getCount() == 0;
    }
}
