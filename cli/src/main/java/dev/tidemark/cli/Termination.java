package dev.tidemark.cli;

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
        return install(() -> { });
    }

    /** Also runs {@code onRequest} (once, on the signal thread), e.g. to interrupt a thread blocked in a start-up. */
    static Termination install(Runnable onRequest) {
        Termination t = new Termination();
        sun.misc.SignalHandler handler = s -> {
            if (t.requested.getCount() > 0) {
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
}
