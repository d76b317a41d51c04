package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MariaDbCollationsTest {
    @Test
    void onlyBinaryAndNoPadBinaryCollationsAreByteExact() {
        assertThat(MariaDbCollations.byteExact(null)).isTrue();
        assertThat(MariaDbCollations.byteExact("binary")).isTrue();
        assertThat(MariaDbCollations.byteExact("utf8mb4_nopad_bin")).isTrue();
        assertThat(MariaDbCollations.byteExact("latin1_nopad_bin")).isTrue();
        for (String merging : new String[] {"utf8mb4_bin", "utf8mb4_general_ci", "utf8mb4_unicode_ci", "utf8mb4_uca1400_ai_ci",
                "utf8mb4_uca1400_as_cs", "utf8mb4_uca1400_nopad_as_cs", "utf8mb4_general_nopad_ci", "latin1_swedish_ci"}) {
            assertThat(MariaDbCollations.byteExact(merging)).as(merging).isFalse();
        }
    }

    @Test
    void aMergingKeyCollationIsRefusedInOneLineNamingTableColumnCollationAndFix() {
        assertThat(MariaDbCollations.refusal("codes", "code", "utf8mb4_nopad_bin", "varchar(20)")).isEmpty();
        String line = MariaDbCollations.refusal("codes", "co`de", "utf8mb4_general_ci", "varchar(20)").orElseThrow();
        assertThat(line).startsWith("table codes column co`de: primary key column has collation utf8mb4_general_ci")
                .contains("ALTER TABLE `codes` MODIFY `co``de` VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL")
                .doesNotContain("\n");
    }

    @Test
    void theRefusalShapeIsSharedByEngines() {
        assertThat(MergingKeys.refusal("t", "k", "ci", "is nondeterministic", "run `ALTER …` (byte-exact)"))
                .isEqualTo("table t column k: primary key column has collation ci, which is nondeterministic, so distinct source "
                        + "rows would merge into one; the sink refuses to write it: run `ALTER …` (byte-exact), then restart the "
                        + "sink; nothing was written");
    }
}
