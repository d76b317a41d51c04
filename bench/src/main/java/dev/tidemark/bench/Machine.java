package dev.tidemark.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** What a benchmark prints about the machine it ran on, read from the JVM and {@code /proc}; "?" where unknown. */
final class Machine {
    private Machine() {
    }

    /** The 1-minute load average: other processes on a shared machine slow every contender. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /** For example "24.0 GiB RAM". */
    static String memTotal() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return String.format(Locale.ROOT, "%.1f GiB RAM", Long.parseLong(line.replaceAll("[^0-9]", "")) / 1048576.0);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return "RAM unknown";
        }
        return "RAM unknown";
    }

    /** For example "2 cores, Linux 6.1, Java 17.0.13". */
    static String summary() {
        return Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                + System.getProperty("os.version") + ", Java " + System.getProperty("java.version");
    }
}
