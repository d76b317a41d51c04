package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UrlMaskTest {
    @Test
    void aQuotedPasswordAsInAKafkaJaasLineIsMaskedWholeQuotesKept() {
        String jaas = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"s3 \\\"x;\";";
        assertThat(UrlMask.mask("sasl.jaas.config " + jaas)).isEqualTo(
                "sasl.jaas.config org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"[hidden]\";");
        assertThat(UrlMask.mask("password='pw' and token = \"t0k\"")).isEqualTo("password='[hidden]' and token = \"[hidden]\"");
        assertThat(UrlMask.mask("password=\"never closed")).isEqualTo("password=\"[hidden]\"");
        assertThat(UrlMask.mask("password=\"[hidden]\";")).isEqualTo("password=\"[hidden]\";");
    }

    @Test
    void aPasswordHoldingASlashIsMaskedWhole() {
        assertThat(UrlMask.mask("jdbc:postgresql://app:s3/cr3t@db.example:5432/orders"))
                .isEqualTo("jdbc:postgresql://app:[hidden]@db.example:5432/orders");
    }

    @Test
    void aPasswordHoldingAnAtSignIsMaskedWhole() {
        assertThat(UrlMask.mask("jdbc:mariadb://app:p@ss@db:3306/x")).isEqualTo("jdbc:mariadb://app:[hidden]@db:3306/x");
        assertThat(UrlMask.mask("cannot connect to jdbc:mariadb://app:a@b/c@db/x now"))
                .isEqualTo("cannot connect to jdbc:mariadb://app:[hidden]@db/x now");
    }

    @Test
    void anOrdinaryPasswordAndAMaskedOneStayAsBefore() {
        assertThat(UrlMask.mask("jdbc:postgresql://u:secret@h/db")).isEqualTo("jdbc:postgresql://u:[hidden]@h/db");
        assertThat(UrlMask.mask("jdbc:postgresql://u:[hidden]@h/db")).isEqualTo("jdbc:postgresql://u:[hidden]@h/db");
        assertThat(UrlMask.mask("'jdbc:postgresql://u:pw@h:5432/db' and more")).isEqualTo("'jdbc:postgresql://u:[hidden]@h:5432/db' and more");
    }

    @Test
    void theDriversBareQuoteOfSuchAPasswordIsMaskedToo() {
        String url = "jdbc:postgresql://app:p@s/s@db/x";
        assertThat(UrlMask.mask("unknown host p@s/s@db", url)).doesNotContain("p@s/s");
    }
}
