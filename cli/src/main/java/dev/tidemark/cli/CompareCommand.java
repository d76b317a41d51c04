package dev.tidemark.cli;

import dev.tidemark.compare.CompareReport;
import dev.tidemark.compare.CompareResult;
import dev.tidemark.compare.CompareRun;
import dev.tidemark.compare.Scenario;
import dev.tidemark.cli.dev.DevLibrary;
import dev.tidemark.cli.dev.DevServers;
import dev.tidemark.connector.config.Secret;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tidemark compare}: one scenario against one throwaway PostgreSQL, through CDC into {@code cdc.db} and through
 * watermark polling into {@code watermark.db}, both reconciled with the source by key and checksum; prints the table,
 * writes {@code report.html} (and JSON on request). Exit 0 when the CDC target equals the source (the watermark's
 * differences are the expected finding), 1 when it does not.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Run one scenario through CDC (into cdc.db) and watermark polling (into watermark.db) against a throwaway "
                + "PostgreSQL, reconcile both with the source by key and row checksum, and explain every difference.",
                "Exit code: 0 when the CDC target equals the source, 1 when it does not, 2 bad usage, 3 runtime failure."})
final class CompareCommand implements Callable<Integer> {
    @Option(names = "--scenario", paramLabel = "NAME", defaultValue = "invoices",
            description = "invoices (the built-in Chinook Invoice recipe: 412 rows, 3 runs) or random (seeded; inserts, updates, "
                    + "deletes, backdated rows, updates that don't touch the cursor, equal-timestamp rows, long transactions); "
                    + "default: ${DEFAULT-VALUE}")
    String scenario;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "seed of the random scenario (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "tidemark-compare",
            description = "where cdc.db, watermark.db and report.html are written (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--json", paramLabel = "FILE|-", description = "also write the result as JSON to FILE, or to stdout with '-' "
            + "(the narration and table then go to stderr)")
    String json;

    @Option(names = "--kafka", paramLabel = "BOOTSTRAP", description = "use this Kafka instead of starting one")
    String kafka;

    @Override
    public Integer call() throws Exception {
        return run("compare", Scenario.named(scenario, seed), out, kafka, json,
                "Tidemark compare: one scenario through CDC and through watermark polling, both reconciled by key and row checksum");
    }

    /**
     * Shared by {@code compare} and {@code demo} ({@code command}; its servers from {@link DevLibrary}): servers up, the scenario, the table and the report, servers down.
     * Ctrl-C or SIGTERM stops quietly: servers stopped, temporary folder removed, one line, exit 130.
     */
    static int run(String command, Scenario scenario, Path out, String kafka, String json, String title) throws Exception {
        DevServers servers = DevLibrary.servers(command);
        Termination termination = Termination.install();
        try {
            return runOnce(servers, scenario, out, kafka, json, title, "tidemark-" + command + "-", termination);
        } catch (Exception e) {
            if (!termination.isRequested()) {
                throw e;
            }
            System.err.println("tidemark: stopped (" + (termination.byCtrlC() ? "Ctrl-C" : "SIGTERM")
                    + "): servers stopped and temporary folders removed; no report was written");
            return ExitCodes.INTERRUPTED;
        }
    }

    private static int runOnce(DevServers servers, Scenario scenario, Path out, String kafka, String json, String title, String tempPrefix,
                               Termination termination) throws Exception {
        boolean jsonToStdout = "-".equals(json);
        PrintStream say = jsonToStdout ? System.err : System.out;
        long t0 = System.nanoTime();
        Path outDir = out.toAbsolutePath().normalize();
        Files.createDirectories(outDir);
        Path html = outDir.resolve("report.html");
        Files.deleteIfExists(html); // never leave an old report next to new targets
        say.println(title);
        try (DevServers.Environment env = servers.environment(tempPrefix, kafka)) {
            env.describe().forEach(line -> say.println("  " + line));
            if (termination.isRequested()) {
                throw new CompareRun.StoppedException();
            }
            String name = "compare" + Long.toHexString(System.nanoTime() & 0xffffff);
            CompareRun.Settings settings = new CompareRun.Settings(name, env.jdbcUrl("postgres"), env.user(),
                    Secret.empty(), env.kafkaBootstrap(), outDir, env.workDir().resolve("state"), Duration.ofSeconds(60));
            CompareResult result = new CompareRun(settings, line -> say.println("  " + line), termination::awaitRequest).run(scenario);
            Path cwd = Path.of("").toAbsolutePath();
            Files.writeString(html, CompareReport.html(result, cwd));
            say.println();
            say.print(CompareReport.text(result, cwd));
            if (jsonToStdout) {
                System.out.print(CompareReport.json(result));
                System.out.flush();
            } else if (json != null) {
                Files.writeString(Path.of(json), CompareReport.json(result));
            }
            say.println();
            say.printf("Files: %s (CDC target), %s (watermark target), %s (report)%s%n", shown(outDir.resolve(CompareRun.CDC_FILE), cwd),
                    shown(outDir.resolve(CompareRun.WATERMARK_FILE), cwd), shown(html, cwd),
                    json == null || jsonToStdout ? "" : ", " + shown(Path.of(json).toAbsolutePath(), cwd) + " (JSON)");
            say.printf("done in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            return result.cdcEqual() ? ExitCodes.OK : ExitCodes.DIFFERENT;
        }
    }

    private static String shown(Path p, Path cwd) {
        return p.startsWith(cwd) ? cwd.relativize(p).toString() : p.toString();
    }
}
