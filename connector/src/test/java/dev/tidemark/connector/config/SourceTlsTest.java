package dev.tidemark.connector.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which TLS parameters of source.url reach Debezium's connection, and which are refused at start. */
class SourceTlsTest {
    private static final String BASE = "jdbc:postgresql://db.example:5432/app";
    private static final String YAML = """
            name: orders
            source:
              url: 'URL'
              tables: [public.orders]
            kafka:
              bootstrapServers: k1:9092
            target:
              url: jdbc:sqlite:/tmp/replica.db
            """;

    @Test
    void everyTlsParameterBecomesDebeziumsDatabaseSettingWithTheSameValue() {
        String url = BASE + "?sslmode=verify-full&sslrootcert=/etc/ca.crt&sslcert=/etc/c.crt&sslkey=/etc/c.pk8"
                + "&sslpassword=k%26y&sslfactory=org.postgresql.ssl.DefaultJavaSSLFactory&ApplicationName=x";
        assertThat(SourceTls.debeziumSettings(url)).containsExactly(
                Map.entry("database.sslmode", "verify-full"),
                Map.entry("database.sslrootcert", "/etc/ca.crt"),
                Map.entry("database.sslcert", "/etc/c.crt"),
                Map.entry("database.sslkey", "/etc/c.pk8"),
                Map.entry("database.sslpassword", "k&y"),
                Map.entry("database.sslfactory", "org.postgresql.ssl.DefaultJavaSSLFactory"));
        assertThat(SourceTls.refusals(url, Map.of())).isEmpty();
    }

    @Test
    void aUrlWithoutParametersGivesNoSettingAndNoRefusal() {
        assertThat(SourceTls.debeziumSettings(BASE)).isEmpty();
        assertThat(SourceTls.refusals(BASE, Map.of())).isEmpty();
        assertThat(SourceTls.debeziumSettings(BASE + "?")).isEmpty();
    }

    @Test
    void theLastOfARepeatedParameterWinsAsInPgjdbc() {
        assertThat(SourceTls.debeziumSettings(BASE + "?sslmode=require&x=1&sslmode=verify-ca"))
                .containsExactly(Map.entry("database.sslmode", "verify-ca"));
    }

    @Test
    void tlsParametersDebeziumHasNoSettingForAreRefusedNamingThem() {
        assertThat(SourceTls.refusals(BASE + "?sslmode=verify-full&sslhostnameverifier=com.example.V&sslfactoryarg=a", Map.of()))
                .hasSize(2)
                .anySatisfy(l -> assertThat(l).startsWith("URL parameter sslhostnameverifier has no Debezium setting"))
                .anySatisfy(l -> assertThat(l).startsWith("URL parameter sslfactoryarg has no Debezium setting"));
        assertThat(SourceTls.refusals(BASE + "?sslMode=verify-full", Map.of())).singleElement().asString()
                .startsWith("URL parameter sslMode has no Debezium setting");
        assertThat(SourceTls.refusals(BASE + "?ssl=true", Map.of())).singleElement().asString()
                .contains("URL parameter ssl ").contains("sslmode=verify-full");
    }

    @Test
    void anSslmodeNeitherAcceptsIsRefusedListingTheModes() {
        assertThat(SourceTls.refusals(BASE + "?sslmode=verify_full", Map.of())).containsExactly("URL parameter sslmode must be one of"
                + " [allow, disable, prefer, require, verify-ca, verify-full] (verify-full verifies the server's certificate"
                + " and host name)");
    }

    @Test
    void parametersThatAreNotAboutTlsAreLeftToPgjdbc() {
        String url = BASE + "?ApplicationName=copy&connectTimeout=5&password=p";
        assertThat(SourceTls.refusals(url, Map.of())).isEmpty();
        assertThat(SourceTls.debeziumSettings(url)).isEmpty();
    }

    @Test
    void theParserRefusesTheUrlAtStartNamingTheParameterAndHidingTheKeyPassword() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> PipelineConfigParser.parse(
                YAML.replace("URL", BASE + "?sslpassword=t0ps3cret&sslpasswordcallback=com.example.Cb"), "p.yaml",
                Path.of("."), Map.<String, String>of()::get));
        assertThat(e.problems()).singleElement().asString()
                .startsWith("Invalid value " + BASE + "?sslpassword=[hidden]&sslpasswordcallback=com.example.Cb for"
                        + " configuration source.url: URL parameter sslpasswordcallback has no Debezium setting");
        assertThat(e.getMessage()).doesNotContain("t0ps3cret");
    }

    @Test
    void aTlsParameterSetInTheUrlAndInSourceDebeziumIsRefusedNamingBoth() {
        assertThat(SourceTls.refusals(BASE + "?sslmode=verify-full", Map.of("database.sslmode", "disable")))
                .containsExactly("URL parameter sslmode is set in source.debezium too (database.sslmode): keep it in"
                        + " source.url only, where it applies to every connection");
        assertThat(SourceTls.refusals(BASE, Map.of("database.sslmode", "verify-full"))).isEmpty();
    }
}
