package dev.tidemark.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class PostgresLengthsTest {
    @Test
    void castsDropTheLengthOfTypesWhoseCastWouldCut() {
        assertThat(PostgresLengths.castType("character varying(3)")).isEqualTo("character varying");
        assertThat(PostgresLengths.castType("character(3)")).isEqualTo("bpchar");
        assertThat(PostgresLengths.castType("bit(8)")).isEqualTo("bit varying");
        assertThat(PostgresLengths.castType("bit varying(8)")).isEqualTo("bit varying");
        assertThat(PostgresLengths.castType("character varying(3)[]")).isEqualTo("character varying[]");
        assertThat(PostgresLengths.castType("character(2)[][]")).isEqualTo("bpchar[][]");
    }

    @Test
    void otherTypesAreCastAsNamed() {
        for (String t : new String[] {"numeric(12,2)", "text", "character varying", "timestamp(3) with time zone", "bigint", "\"my type\""}) {
            assertThat(PostgresLengths.castType(t)).isEqualTo(t);
            assertThat(PostgresLengths.declaredLength(t)).isEmpty();
        }
    }

    @Test
    void lengthsAreCheckedInCharactersAndTrailingSpacesCountInVarcharOnly() {
        assertThat(PostgresLengths.declaredLength("character varying(3)")).isEqualTo(OptionalInt.of(3));
        assertThat(PostgresLengths.declaredLength("character varying(3)[]")).isEmpty();
        assertThat(PostgresLengths.fits("éé😀", "character varying(3)")).isTrue();
        assertThat(PostgresLengths.fits("abcd", "character varying(3)")).isFalse();
        assertThat(PostgresLengths.fits("abc ", "character varying(3)")).isFalse();
        assertThat(PostgresLengths.fits("abc ", "character(3)")).isTrue();
        assertThat(PostgresLengths.fits("abcd", "character(3)")).isFalse();
        assertThat(PostgresLengths.fits(null, "character(3)")).isTrue();
        assertThat(PostgresLengths.fits("anything", "text")).isTrue();
    }
}
