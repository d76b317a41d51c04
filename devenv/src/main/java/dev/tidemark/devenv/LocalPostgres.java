package dev.tidemark.devenv;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A throwaway PostgreSQL cluster with logical decoding ({@code wal_level=logical}), listening on 127.0.0.1 at a free
 * port, for {@code tidemark demo} and integration tests.
 *
 * <p><b>What it starts.</b> {@link #start(Path)} runs {@code initdb} into {@code baseDir/data} (superuser
 * {@code postgres}, trust authentication, UTF8, no locale) and {@code pg_ctl start}, and returns once the server accepts
 * connections. The server binaries come from a {@code bin} folder on PATH, else the newest
 * {@code /usr/lib/postgresql/<version>/bin}, else the {@code io.zonky.test.postgres} binaries (downloaded with
 * {@code mvn} and unpacked into a per-user cache). The server log is {@code baseDir/postgres.log}.
 *
 * <p><b>Who cleans up.</b> The instance owns {@code baseDir} from {@code start} on; the caller owns the instance and
 * must {@link #close()} it, which stops the server and deletes {@code baseDir}. Should the JVM end without that, even
 * by SIGKILL, a watchdog child process sees its stdin pipe from this JVM close, stops the server immediately and
 * deletes {@code baseDir} itself.
 *
 * <p><b>TLS.</b> {@link #start(Path, PostgresTls)} also turns TLS on and replaces {@code pg_hba.conf} with
 * {@code hostssl} lines only (see {@link PostgresTls}): then every connection, replication included, must use TLS and
 * show a client certificate or a SCRAM password, and {@link #jdbcUrl(String)} carries the client's TLS parameters.
 * Without it, the cluster trusts every local TCP connection, in plaintext.
 *
 * <p><b>Root.</b> PostgreSQL refuses to run as root. When the JVM is root, the server runs as the OS user
 * {@code postgres} (which must exist), {@code baseDir} is handed to that user, and its parent folders must be
 * enterable by it (a folder under {@code /tmp} is; JUnit's private {@code @TempDir} is not).
 *
 * <p><b>Thread-safety.</b> Each instance is independent; accessors are safe from any thread, and {@link #close()} is
 * idempotent and may be called concurrently. Failures in {@code start} are thrown as {@link IllegalStateException}
 * naming the step, with the tail of the command output and server log; {@code close()} never throws.
 */
public final class LocalPostgres implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalPostgres.class);
    private static final String HOST = "127.0.0.1";
    private static final String USER = "postgres";
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(90);
    /** Longest Unix-domain socket path PostgreSQL accepts (sun_path is 108 bytes with the terminating NUL). */
    private static final int MAX_SOCKET_PATH = 107;
    private static final int START_ATTEMPTS = 3;

    private final ServerFolder folder;
    private final Path dataDir;
    private final Path socketDir;
    private final Path logFile;
    private final Path binDir;
    private final ServerAccount account;
    /** TLS settings, or null for a plaintext cluster with trust authentication. */
    private final PostgresTls tls;
    private volatile int port;
    private volatile String version;
    private volatile long startupMillis;
    private volatile Process watchdog;

    private LocalPostgres(Path baseDir, Path binDir, ServerAccount account, PostgresTls tls) {
        this.folder = new ServerFolder(baseDir.toAbsolutePath().normalize(), "PostgreSQL");
        this.dataDir = folder.path().resolve("data");
        this.socketDir = folder.path().resolve("sock");
        this.logFile = folder.path().resolve("postgres.log");
        this.binDir = binDir;
        this.account = account;
        this.tls = tls;
    }

    /** Starts a cluster in {@code baseDir} (created if absent) with {@code fsync=off}. */
    public static LocalPostgres start(Path baseDir) {
        return start(baseDir, false);
    }

    /**
     * Starts a cluster in {@code baseDir} (created if absent). {@code fsync=false} makes {@code initdb} and the server
     * skip flushing to disk: much faster, and fine for a cluster that is deleted afterwards anyway.
     */
    public static LocalPostgres start(Path baseDir, boolean fsync) {
        long begin = System.nanoTime();
        return start(baseDir, PostgresBinaries.locate(), fsync, null, begin);
    }

    /** Starts a cluster in {@code baseDir} (created if absent) with {@code fsync=off} that accepts TLS connections only. */
    public static LocalPostgres start(Path baseDir, PostgresTls tls) {
        long begin = System.nanoTime();
        return start(baseDir, PostgresBinaries.locate(), false, java.util.Objects.requireNonNull(tls, "tls"), begin);
    }

    /** Starts a cluster with the binaries in {@code binDir}, e.g. {@link PostgresBinaries#zonky()} in a test. */
    static LocalPostgres start(Path baseDir, Path binDir, boolean fsync) {
        return start(baseDir, binDir, fsync, null, System.nanoTime());
    }

    private static LocalPostgres start(Path baseDir, Path binDir, boolean fsync, PostgresTls tls, long begin) {
        ServerAccount account = ServerAccount.current();
        account.requireAccount();
        LocalPostgres postgres = new LocalPostgres(baseDir, binDir, account, tls);
        try {
            postgres.boot(fsync);
        } catch (RuntimeException e) {
            postgres.close();
            throw e;
        }
        postgres.startupMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
        LOG.info("PostgreSQL {} started on {}:{} (wal_level=logical{}) in {} s", postgres.version, HOST, postgres.port,
                tls == null ? "" : ", TLS only",
                String.format(Locale.ROOT, "%.1f", postgres.startupMillis / 1000.0));
        return postgres;
    }

    private void boot(boolean fsync) {
        prepareDirectories();
        account.requireAccess("-x", binDir.resolve("initdb"),
                "use PostgreSQL binaries in a folder every user can read (e.g. /usr/lib/postgresql)");
        account.requireAccess("-w", dataDir,
                "choose a base directory whose parent folders other users may enter (e.g. a new folder directly"
                        + " under /tmp, not inside a private temp folder), or chmod o+x its parent folders");
        version = PostgresBinaries.version(binDir);

        List<String> initdb = new ArrayList<>(List.of(binDir.resolve("initdb").toString(), "-D", dataDir.toString(),
                "-U", USER, "-A", "trust", "-E", "UTF8", "--no-locale"));
        if (!fsync) {
            initdb.add("--no-sync");
        }
        Path passwordFile = tls != null && tls.clientAuth() instanceof PostgresTls.Scram scram
                ? ServerTlsFiles.passwordFile(folder.path(), scram.password()) : null;
        if (passwordFile != null) {
            initdb.add("--pwfile=" + passwordFile);
            account.takeOwnership(folder.path());
        }
        Processes.run("initdb", account.command(initdb), folder.path(), STEP_TIMEOUT);
        if (tls != null) {
            deleteQuietly(passwordFile);
            ServerTlsFiles.install(tls, dataDir, HOST);
            account.takeOwnership(dataDir);
        }

        watchdog = startWatchdog();
        startServer(fsync);
    }

    private void prepareDirectories() {
        try {
            Files.createDirectories(dataDir);
            Files.createDirectories(socketDir);
            Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwx------"));
        } catch (IOException e) {
            throw new IllegalStateException("create " + folder.path() + " failed: " + e, e);
        }
        account.takeOwnership(folder.path());
    }

    /** {@code pg_ctl start}, on a fresh free port; retried when another process took the port meanwhile. */
    private void startServer(boolean fsync) {
        for (int attempt = 1; ; attempt++) {
            port = FreePorts.find();
            List<String> command = pgCtl("-l", logFile.toString(), "-w", "-t", "60", "start", "-o", serverOptions(fsync));
            try {
                Processes.run("pg_ctl start", account.command(command), folder.path(), STEP_TIMEOUT, logFile);
                return;
            } catch (IllegalStateException e) {
                boolean portTaken = e.getMessage().contains("could not bind");
                if (!portTaken || attempt == START_ATTEMPTS) {
                    throw e;
                }
                LOG.debug("port {} was taken before PostgreSQL could bind it; retrying", port);
            }
        }
    }

    private String serverOptions(boolean fsync) {
        // Quoted for the shell pg_ctl starts the server through. Without a usable socket folder: TCP only.
        boolean socketFits = socketDir.toString().length() + "/.s.PGSQL.65535".length() <= MAX_SOCKET_PATH;
        String socket = socketFits ? Processes.shellQuote(socketDir.toString()) : "''";
        return "-p " + port + " -k " + socket + " -c listen_addresses=" + HOST + " -c wal_level=logical"
                + " -c max_replication_slots=20 -c max_wal_senders=20 -c fsync=" + (fsync ? "on" : "off");
    }

    /**
     * A {@code sh} child that blocks reading a pipe this JVM never writes to. When the JVM dies the pipe closes and
     * the shell stops the server and deletes {@code baseDir}. It ignores SIGINT/SIGTERM/SIGHUP so that a Ctrl-C
     * reaching the whole process group cannot kill it before the JVM is gone.
     */
    private Process startWatchdog() {
        String stop = account.command(pgCtl("-m", "immediate", "-w", "stop")).stream()
                .map(Processes::shellQuote)
                .collect(Collectors.joining(" "));
        String script = "trap '' INT TERM HUP; cat >/dev/null; " + stop + " >/dev/null 2>&1; rm -rf -- "
                + Processes.shellQuote(folder.path().toString());
        try {
            return new ProcessBuilder("sh", "-c", script)
                    .directory(Path.of("/").toFile())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("start the PostgreSQL watchdog (sh) failed: " + e.getMessage(), e);
        }
    }

    private List<String> pgCtl(String... arguments) {
        List<String> command = new ArrayList<>(List.of(binDir.resolve("pg_ctl").toString(), "-D", dataDir.toString()));
        command.addAll(List.of(arguments));
        return command;
    }

    /**
     * Fault injection for tests: {@code pg_ctl restart} with shutdown mode {@code fast} (clients disconnected,
     * clean checkpoint) or {@code immediate} (no checkpoint: crash recovery on start), same port and options.
     */
    public void restart(boolean immediate) {
        Processes.run("pg_ctl restart", account.command(pgCtl("-m", immediate ? "immediate" : "fast", "-w", "-t", "60",
                "-l", logFile.toString(), "restart")), folder.path(), STEP_TIMEOUT, logFile);
    }

    /** Always {@code 127.0.0.1}. */
    public String host() {
        return HOST;
    }

    public int port() {
        return port;
    }

    /**
     * {@code jdbc:postgresql://127.0.0.1:<port>/<database>}; with TLS followed by {@code ?} and
     * {@link PostgresTls#urlParameters()}.
     */
    public String jdbcUrl(String database) {
        String url = "jdbc:postgresql://" + HOST + ":" + port + "/" + database;
        return tls == null ? url : url + "?" + tls.urlParameters();
    }

    /**
     * The superuser, {@code postgres}. Without TLS: trust authentication, so any password (or none) works; with TLS
     * its client certificate or its SCRAM password ({@link #password()}).
     */
    public String user() {
        return USER;
    }

    /** The superuser's password: the SCRAM one with {@link PostgresTls.Scram}, else empty (none is checked). */
    public String password() {
        return tls != null && tls.clientAuth() instanceof PostgresTls.Scram scram ? scram.password() : "";
    }

    /** The TLS settings the cluster was started with, if any. */
    public java.util.Optional<PostgresTls> tls() {
        return java.util.Optional.ofNullable(tls);
    }

    /** The folder holding the {@code initdb}, {@code pg_ctl} and {@code postgres} binaries in use. */
    public Path binDir() {
        return binDir;
    }

    /** The server version, e.g. {@code 15.20}. */
    public String version() {
        return version;
    }

    /** Wall time {@code start} took, binary lookup included. */
    public long startupMillis() {
        return startupMillis;
    }

    /** The postmaster's process id, from {@code postmaster.pid}; for tests. */
    long serverPid() throws IOException {
        return Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).strip());
    }

    /** The watchdog process; for tests. */
    ProcessHandle watchdogHandle() {
        return watchdog.toHandle();
    }

    Path baseDir() {
        return folder.path();
    }

    /** Stops the server ({@code pg_ctl stop -m fast}), ends the watchdog and deletes {@code baseDir}. Never throws. */
    @Override
    public void close() {
        folder.close(() -> {
            stopServer();
            stopWatchdog();
        });
    }

    private void stopServer() {
        if (!Files.exists(dataDir.resolve("postmaster.pid"))) {
            return;
        }
        try {
            Processes.run("pg_ctl stop", account.command(pgCtl("-m", "fast", "-w", "stop")), folder.path(), STEP_TIMEOUT,
                    logFile);
        } catch (RuntimeException e) {
            LOG.warn("Fast stop of PostgreSQL on port {} failed, stopping immediately: {}", port, e.getMessage());
            try {
                Processes.run("pg_ctl stop -m immediate", account.command(pgCtl("-m", "immediate", "-w", "stop")),
                        folder.path(), STEP_TIMEOUT, logFile);
            } catch (RuntimeException again) {
                LOG.warn("Could not stop PostgreSQL on port {}: {}", port, again.getMessage());
            }
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            LOG.debug("Deleting {} failed", file, e);
        }
    }

    /** Kills the watchdog and its {@code cat} without letting it run its own cleanup. */
    private void stopWatchdog() {
        Process process = watchdog;
        if (process == null) {
            return;
        }
        List<ProcessHandle> children = process.descendants().collect(Collectors.toList());
        process.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
        try {
            process.waitFor(5, TimeUnit.SECONDS);
            process.getOutputStream().close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            LOG.debug("Closing the watchdog pipe failed", e);
        }
    }
}
