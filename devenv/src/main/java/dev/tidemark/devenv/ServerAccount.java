package dev.tidemark.devenv;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The operating-system account the PostgreSQL server runs under. PostgreSQL refuses to run as root, so when the JVM
 * is root every server command goes through {@code runuser -u postgres --} and the files the server touches are
 * handed to that account; otherwise commands run as the JVM's own user, unchanged.
 */
final class ServerAccount {

    static final String POSTGRES_USER = "postgres";
    private static final Duration QUICK = Duration.ofSeconds(30);
    private static volatile ServerAccount current;

    private final boolean root;

    private ServerAccount(boolean root) {
        this.root = root;
    }

    /** The account for this JVM, determined once. */
    static ServerAccount current() {
        ServerAccount account = current;
        if (account == null) {
            account = new ServerAccount(jvmRunsAsRoot());
            current = account;
        }
        return account;
    }

    boolean isRoot() {
        return root;
    }

    /** The user name the server processes run as. */
    String userName() {
        return root ? POSTGRES_USER : System.getProperty("user.name");
    }

    /** {@code command}, prefixed so that it runs as the server account. */
    List<String> command(List<String> command) {
        if (!root) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of("runuser", "-u", POSTGRES_USER, "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** When running as root: fails clearly unless the {@code postgres} account exists. */
    void requireAccount() {
        if (!root) {
            return;
        }
        try {
            Processes.run("look up user " + POSTGRES_USER, List.of("id", "-u", POSTGRES_USER), null, QUICK);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("PostgreSQL refuses to run as root and this JVM runs as root, but there is"
                    + " no OS user '" + POSTGRES_USER + "' to run it as; create one (useradd -r " + POSTGRES_USER
                    + ") or run as a non-root user", e);
        }
    }

    /** When running as root: gives the account the whole tree under {@code dir}. */
    void takeOwnership(Path dir) {
        if (root) {
            Processes.run("hand " + dir + " to user " + POSTGRES_USER,
                    List.of("chown", "-R", POSTGRES_USER + ":", dir.toString()), null, QUICK);
        }
    }

    /**
     * When running as root: fails with {@code advice} unless the account passes {@code test <flag> <path>}
     * (e.g. {@code -x} on a binary, {@code -w} on a folder), so a folder under a private parent fails clearly.
     */
    void requireAccess(String flag, Path path, String advice) {
        if (!root) {
            return;
        }
        try {
            Processes.run("check access", command(List.of("test", flag, path.toString())), null, QUICK);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("user " + POSTGRES_USER + " (PostgreSQL refuses to run as root) cannot "
                    + ("-x".equals(flag) ? "execute " : "write to ") + path + "; " + advice, e);
        }
    }

    private static boolean jvmRunsAsRoot() {
        try {
            return "0".equals(Processes.run("run id -u", List.of("id", "-u"), null, QUICK).strip());
        } catch (IllegalStateException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }
}
