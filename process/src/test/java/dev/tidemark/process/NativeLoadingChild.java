package dev.tidemark.process;

import java.sql.Connection;
import java.sql.DriverManager;

/**
 * A child JVM for {@link NativeLibraryFolderTest}: takes its native-library folder as a command's main does, then
 * loads lz4-java's and sqlite-jdbc's native libraries, prints {@code LOADED} and exits, or with {@code hang} blocks on
 * its stdin until it is killed.
 */
public final class NativeLoadingChild {
    private NativeLoadingChild() {
    }

    public static void main(String[] args) throws Exception {
        NativeLibraryFolder.useOwn();
        if (!net.jpountz.lz4.LZ4Factory.nativeInstance().toString().contains("JNI")) {
            throw new IllegalStateException("lz4-java did not load its native library");
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            c.createStatement().execute("SELECT 1");
        }
        System.out.println("LOADED");
        System.out.flush();
        if (args.length > 0 && args[0].equals("hang")) {
            System.in.read(); // blocks until the test kills this JVM (or closes its stdin)
        }
    }
}
