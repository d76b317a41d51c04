package dev.tidemark.devenv;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes a {@link PostgresTls} into a data folder {@code initdb} made: copies the server certificate, its key
 * (mode 0600, as PostgreSQL demands) and the authority's certificate, appends the TLS settings to
 * {@code postgresql.conf} and replaces {@code pg_hba.conf}. The caller hands the folder to the server's account after.
 */
final class ServerTlsFiles {
    private ServerTlsFiles() {
    }

    static void install(PostgresTls tls, Path dataDir, String host) {
        try {
            TlsCertificates c = tls.certificates();
            Files.copy(c.serverCert(), dataDir.resolve(PostgresTls.SERVER_CERT), StandardCopyOption.REPLACE_EXISTING);
            Path key = dataDir.resolve(PostgresTls.SERVER_KEY);
            Files.copy(c.serverKey(), key, StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
            Files.copy(c.caCert(), dataDir.resolve(PostgresTls.CA_CERT), StandardCopyOption.REPLACE_EXISTING);
            Files.write(dataDir.resolve("postgresql.conf"), tls.serverSettings(), StandardOpenOption.APPEND);
            Files.write(dataDir.resolve("pg_hba.conf"), tls.hbaLines(host));
        } catch (IOException e) {
            throw new IllegalStateException("write the TLS settings into " + dataDir + " failed: " + e, e);
        }
    }

    /** A file holding {@code password} for {@code initdb --pwfile}, readable by its owner only. */
    static Path passwordFile(Path dir, String password) {
        Path file = dir.resolve("initdb-password");
        try {
            Files.writeString(file, password + "\n");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (IOException e) {
            throw new IllegalStateException("write " + file + " failed: " + e, e);
        }
        return file;
    }
}
