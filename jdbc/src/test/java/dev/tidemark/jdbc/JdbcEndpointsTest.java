package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JdbcEndpointsTest {
    @TempDir
    Path dir;

    @Test
    void aUrlWithoutADriverIsRefusedListingTheSupportedOnesMasked() {
        assertThat(JdbcEndpoints.refusal(JdbcEndpoints.Side.SOURCE, "jdbc:oracle:thin:@h:1521:x")).get().asString()
                .isEqualTo("unsupported source jdbc:oracle:thin:@h:1521:x: no JDBC driver for jdbc:oracle (supported: "
                        + "jdbc:sqlite, jdbc:postgresql, jdbc:mariadb)");
        assertThat(JdbcEndpoints.refusal(JdbcEndpoints.Side.TARGET, "jdbc:mysql://h/db?user=u&password=pw")).get().asString()
                .contains("unsupported target jdbc:mysql://h/db?user=u&password=[hidden]").contains("write jdbc:mariadb://")
                .doesNotContain("pw&").doesNotContain("=pw");
    }

    @Test
    void aMissingSqliteSourceIsRefusedAndNotCreated_aMissingTargetIsFine() throws Exception {
        Path missing = dir.resolve("missing.db");
        assertThat(JdbcEndpoints.refusal(JdbcEndpoints.Side.SOURCE, "jdbc:sqlite:" + missing)).get().asString()
                .startsWith("source " + missing + " does not exist");
        assertThat(JdbcEndpoints.readRefusal(JdbcEndpoints.Side.TARGET, "jdbc:sqlite:" + missing)).get().asString()
                .startsWith("target " + missing + " does not exist");
        assertThat(JdbcEndpoints.refusal(JdbcEndpoints.Side.TARGET, "jdbc:sqlite:" + missing)).isEmpty();
        assertThat(missing).doesNotExist();
        Files.createFile(missing);
        assertThat(JdbcEndpoints.refusal(JdbcEndpoints.Side.SOURCE, "jdbc:sqlite:" + missing)).isEmpty();
        assertThat(JdbcEndpoints.refusal(JdbcEndpoints.Side.SOURCE, "jdbc:sqlite::memory:")).isEmpty();
    }

    @Test
    void relativeSqliteFilesResolveAgainstTheGivenFolder() {
        Path base = Path.of("/etc/shop");
        assertThat(JdbcEndpoints.relativeTo("jdbc:sqlite:replica.db", base)).isEqualTo("jdbc:sqlite:/etc/shop/replica.db");
        assertThat(JdbcEndpoints.relativeTo("jdbc:sqlite:../data/r.db?journal_mode=WAL", base))
                .isEqualTo("jdbc:sqlite:/etc/data/r.db?journal_mode=WAL");
        assertThat(JdbcEndpoints.relativeTo("jdbc:sqlite:/var/r.db", base)).isEqualTo("jdbc:sqlite:/var/r.db");
        assertThat(JdbcEndpoints.relativeTo("jdbc:sqlite::memory:", base)).isEqualTo("jdbc:sqlite::memory:");
        assertThat(JdbcEndpoints.relativeTo("jdbc:postgresql://h/db", base)).isEqualTo("jdbc:postgresql://h/db");
    }

    @Test
    void aFailedConnectionNamesSideAndHostNeverThePassword() {
        String url = "jdbc:postgresql://no-such-host.invalid:5433/db?password=pw";
        String m = JdbcEndpoints.connectFailure(JdbcEndpoints.Side.SOURCE, url,
                new java.sql.SQLException("The connection attempt failed.", "08001", new java.net.UnknownHostException("no-such-host.invalid")));
        assertThat(m).isEqualTo("cannot connect to the source at no-such-host.invalid:5433 (jdbc:postgresql://no-such-host.invalid:5433/db?"
                + "password=[hidden]): The connection attempt failed. (unknown host no-such-host.invalid)");
        assertThat(JdbcEndpoints.host("jdbc:mariadb://u:pw@db.example:3306/x")).isEqualTo("db.example:3306");
    }

    @Test
    void masksCredentialsAnywhereInText() {
        assertThat(UrlMask.mask("No suitable driver found for jdbc:mysql://h/db?user=u&password=pw;pwd=x"))
                .isEqualTo("No suitable driver found for jdbc:mysql://h/db?user=u&password=[hidden];pwd=[hidden]");
        assertThat(UrlMask.mask("jdbc:postgresql://app:s3cret@h/db")).isEqualTo("jdbc:postgresql://app:[hidden]@h/db");
        String once = "(source " + UrlMask.mask("jdbc:postgresql://app:s3cret@h/db?password=p2") + ")";
        assertThat(UrlMask.mask(once)).as("masking twice keeps the text").isEqualTo(once)
                .isEqualTo("(source jdbc:postgresql://app:[hidden]@h/db?password=[hidden])");
    }

    @Test
    void aDriverMessageQuotingThePasswordBareIsMaskedToo() {
        String url = "jdbc:postgresql://app:s3cret@127.0.0.1:1/shop?password=p2";
        String m = JdbcEndpoints.connectFailure(JdbcEndpoints.Side.SOURCE, url, new java.sql.SQLException("The connection attempt failed.",
                "08001", new java.net.UnknownHostException("app:s3cret@127.0.0.1")));
        assertThat(m).doesNotContain("s3cret").doesNotContain("p2").contains("unknown host app:[hidden]@127.0.0.1");
    }

    @Test
    void theFileOfASqliteUrl() {
        assertThat(JdbcEndpoints.sqliteFile("jdbc:sqlite:/tmp/x/target.db")).hasValue(Path.of("/tmp/x/target.db"));
        assertThat(JdbcEndpoints.sqliteFile("jdbc:sqlite:rel/t.db")).hasValue(Path.of("rel/t.db"));
        assertThat(JdbcEndpoints.sqliteFile("jdbc:sqlite:file:/tmp/t.db?mode=ro&cache=shared")).hasValue(Path.of("/tmp/t.db"));
    }

    @Test
    void noFileForOtherUrlsAndInMemoryDatabases() {
        assertThat(JdbcEndpoints.sqliteFile("jdbc:sqlite::memory:")).isEmpty();
        assertThat(JdbcEndpoints.sqliteFile("jdbc:sqlite:")).isEmpty();
        assertThat(JdbcEndpoints.sqliteFile("jdbc:postgresql://h/db")).isEmpty();
    }
}
