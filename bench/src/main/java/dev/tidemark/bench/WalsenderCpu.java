package dev.tidemark.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * CPU seconds of the walsender (the server process that decodes the WAL with pgoutput) behind each replication slot:
 * every 100 ms the active walsender of every slot is looked up in {@code pg_replication_slots} and its
 * {@code utime + stime} read from {@code /proc/<pid>/stat}; the last reading per slot is kept (so up to 100 ms of CPU
 * at the very end can be missed). Works when the server runs on this machine.
 */
final class WalsenderCpu implements AutoCloseable {
    private static final double TICKS_PER_SECOND = 100.0; // USER_HZ on Linux
    private final Map<String, Long> ticks = new ConcurrentHashMap<>();
    private final Thread sampler;
    private volatile boolean running = true;

    WalsenderCpu(String url) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        Connection c = DriverManager.getConnection(url, p);
        sampler = new Thread(() -> {
            try (c; Statement s = c.createStatement()) {
                while (running) {
                    try (ResultSet rs = s.executeQuery("SELECT slot_name, active_pid FROM pg_replication_slots WHERE active_pid IS NOT NULL")) {
                        while (rs.next()) {
                            long t = ticksOf(rs.getInt(2));
                            if (t >= 0) {
                                ticks.merge(rs.getString(1), t, Math::max);
                            }
                        }
                    }
                    Thread.sleep(100);
                }
            } catch (SQLException | InterruptedException e) {
                // stopped
            }
        }, "walsender-cpu");
        sampler.setDaemon(true);
        sampler.start();
    }

    double seconds(String slot) {
        return ticks.getOrDefault(slot, 0L) / TICKS_PER_SECOND;
    }

    private static long ticksOf(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15: utime, stime
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.interrupt();
        sampler.join(2000);
    }
}
