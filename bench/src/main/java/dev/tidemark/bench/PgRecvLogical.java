package dev.tidemark.bench;

import dev.tidemark.devenv.LocalPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The ceiling of {@code bench/capture.sh}: {@code pg_recvlogical} with pgoutput draining one slot to {@code /dev/null}
 * up to the backlog's end LSN ({@code --endpos}), under {@code /usr/bin/time} for its CPU and peak RSS. The clock runs
 * from process start to exit (its start-up is a few milliseconds).
 */
final class PgRecvLogical {
    private PgRecvLogical() {
    }

    static Map<String, String> drain(LocalPostgres pg, String slot, String publication, String endLsn, long changes, int round)
            throws IOException, InterruptedException {
        Path times = Files.createTempFile("pg_recvlogical-", ".time");
        List<String> cmd = List.of("/usr/bin/time", "-o", times.toString(), "-f", "%U %S %M",
                pg.binDir().resolve("pg_recvlogical").toString(), "-h", pg.host(), "-p", Integer.toString(pg.port()), "-U", pg.user(),
                "-d", CaptureBenchmark.DATABASE, "--slot", slot, "--start", "--endpos", endLsn, "--no-loop",
                "-o", "proto_version=1", "-o", "publication_names=" + publication, "-f", "/dev/null");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("pg_recvlogical on slot " + slot + " failed: " + new String(out, StandardCharsets.UTF_8).strip());
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        String[] t = Files.readString(times).strip().split("\\s+");
        Files.deleteIfExists(times);
        Map<String, String> m = new LinkedHashMap<>();
        m.put("contender", CaptureContender.PG_RECVLOGICAL.id);
        m.put("round", Integer.toString(round));
        m.put("slot", slot);
        m.put("changes", Long.toString(changes));
        m.put("seconds", String.format(Locale.ROOT, "%.3f", seconds));
        m.put("wall", String.format(Locale.ROOT, "%.3f", seconds));
        m.put("cpu", String.format(Locale.ROOT, "%.3f", Double.parseDouble(t[0]) + Double.parseDouble(t[1])));
        m.put("heap", "-1");
        m.put("rss", Long.toString(Long.parseLong(t[2]) * 1024));
        return m;
    }
}
