package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.postgresql.geometric.PGbox;
import org.postgresql.geometric.PGcircle;
import org.postgresql.geometric.PGpoint;

/** The texts PostgreSQL 15 printed for these float8 values ({@code SELECT 1e15::float8, …} on this machine's server). */
class PgFloatTextTest {
    @Test
    void printsPlainFromExponentMinusFourToFourteenElseScientific() {
        assertThat(PgFloatText.of(1e14)).isEqualTo("100000000000000");
        assertThat(PgFloatText.of(1e15)).isEqualTo("1e+15");
        assertThat(PgFloatText.of(123456789012345d)).isEqualTo("123456789012345");
        assertThat(PgFloatText.of(1234567890123456d)).isEqualTo("1.234567890123456e+15");
        assertThat(PgFloatText.of(0.0001)).isEqualTo("0.0001");
        assertThat(PgFloatText.of(0.00001)).isEqualTo("1e-05");
        assertThat(PgFloatText.of(1.5e300)).isEqualTo("1.5e+300");
        assertThat(PgFloatText.of(-1.7976931348623157e308)).isEqualTo("-1.7976931348623157e+308");
        assertThat(PgFloatText.of(12345678.5)).isEqualTo("12345678.5");
        assertThat(PgFloatText.of(1.0)).isEqualTo("1");
        assertThat(PgFloatText.of(-0.5)).isEqualTo("-0.5");
    }

    @Test
    void printsZerosAndSpecialsAsPostgresDoes() {
        assertThat(PgFloatText.of(0.0)).isEqualTo("0");
        assertThat(PgFloatText.of(-0.0)).isEqualTo("-0");
        assertThat(PgFloatText.of(Double.NaN)).isEqualTo("NaN");
        assertThat(PgFloatText.of(Double.POSITIVE_INFINITY)).isEqualTo("Infinity");
        assertThat(PgFloatText.of(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
    }

    @Test
    void rewritesTheDriversGeometricTextAsPostgresPrintsIt() {
        assertThat(PgFloatText.inText(new PGpoint(1e15, 0.1).getValue())).isEqualTo("(1e+15,0.1)");
        assertThat(PgFloatText.inText(new PGbox(1, 1, 0, 0).getValue())).isEqualTo("(1,1),(0,0)");
        assertThat(PgFloatText.inText(new PGcircle(1, 2, 3.5).getValue())).isEqualTo("<(1,2),3.5>");
        assertThat(PgFloatText.inText(new PGpoint(Double.NEGATIVE_INFINITY, Double.NaN).getValue())).isEqualTo("(-Infinity,NaN)");
    }
}
