package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.postgresql.jdbc.PgArray;

class SourceTextConverterTest {

    @Test
    void onlyArrayTypesAreCarriedAsText() {
        assertThat(SourceTextConverter.carriesAsText("_int4")).isTrue();
        assertThat(SourceTextConverter.carriesAsText("_text")).isTrue();
        assertThat(SourceTextConverter.carriesAsText("int4")).isFalse();
        assertThat(SourceTextConverter.carriesAsText("numeric")).isFalse();
        assertThat(SourceTextConverter.carriesAsText("int2vector")).isFalse();
        for (String t : new String[] {"xml", "cidr", "macaddr", "macaddr8", "int4range", "int8range", "numrange", "daterange",
            "tsrange", "tsvector", "tsquery"}) {
            assertThat(SourceTextConverter.carriesAsText(t)).as(t).isTrue();
        }
        assertThat(SourceTextConverter.carriesAsText("tstzrange")).as("its text depends on the session's TimeZone").isFalse();
        assertThat(SourceTextConverter.carriesAsText(null)).isFalse();
    }

    @Test
    void anArrayOverPostgresTextKeepsThatTextExactly() throws Exception {
        for (String text : new String[] {"[2:3]={1,2}", "{{1,2},{3,4}}", "{}", "{NULL}", "{\"a b\",\"c,d\",NULL,\"\"}"}) {
            assertThat(SourceTextConverter.text(new PgArray(null, 1007, text))).isEqualTo(text);
        }
        assertThat(SourceTextConverter.text(null)).isNull();
        org.postgresql.util.PGobject range = new org.postgresql.util.PGobject();
        range.setType("int4range");
        range.setValue("[1,5)");
        assertThat(SourceTextConverter.text(range)).isEqualTo("[1,5)");
        assertThat(SourceTextConverter.text("'a':1 'b':2")).isEqualTo("'a':1 'b':2");
    }
}
