package dev.tidemark.devenv;

import dev.tidemark.process.NativeLibraryFolder;
import java.io.IOException;
import java.io.InputStream;

/**
 * Entry point of the broker JVM that {@link LocalKafka} starts: runs {@code kafka.Kafka} with the given
 * {@code server.properties}, and halts as soon as its stdin reaches end-of-file. The parent JVM keeps that pipe open
 * and never writes to it, so the broker cannot outlive its parent, even one killed by SIGKILL.
 */
public final class KafkaChildMain {

    private KafkaChildMain() {
    }

    public static void main(String[] args) {
        NativeLibraryFolder.useOwn();
        if (args.length != 1) {
            System.err.println("usage: KafkaChildMain <server.properties>");
            System.exit(2);
        }
        Thread watcher = new Thread(KafkaChildMain::haltWhenParentGone, "tidemark-parent-watcher");
        watcher.setDaemon(true);
        watcher.start();
        kafka.Kafka.main(new String[] {args[0]});
    }

    private static void haltWhenParentGone() {
        byte[] buffer = new byte[256];
        try (InputStream in = System.in) {
            while (in.read(buffer) >= 0) {
                // the parent never writes; anything read is ignored
            }
        } catch (IOException e) {
            // a broken pipe means the parent is gone as well
        }
        Runtime.getRuntime().halt(0);
    }
}
