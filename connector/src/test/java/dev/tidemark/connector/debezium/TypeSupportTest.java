package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import org.junit.jupiter.api.Test;

class TypeSupportTest {
    static final TableId T = new TableId("public", "typed");

    static CapturedColumn col(String declared, String typeName, char kind, char category) {
        return new CapturedColumn(T, "v", declared, typeName, kind, category, null);
    }

    @Test
    void exactBaseTypesAreAcceptedOnEveryTarget() {
        for (String t : new String[] {"int4", "numeric", "interval", "bpchar", "inet", "json", "timestamptz", "uuid"}) {
            for (TypeSupport.Target target : TypeSupport.Target.values()) {
                assertThat(TypeSupport.refusal(col(t.equals("numeric") ? "numeric(10,2)" : t, t, 'b', 'N'), target))
                        .as(t + " on " + target).isEmpty();
            }
        }
    }

    @Test
    void arraysOfBuiltInTypesArriveOnEveryTarget() {
        for (String t : new String[] {"_int4", "_text", "_numeric", "_timestamptz", "_uuid", "_timetz", "_date"}) {
            for (TypeSupport.Target target : TypeSupport.Target.values()) {
                assertThat(TypeSupport.refusal(col(t.substring(1) + "[]", t, 'b', 'A'), target)).as(t + " on " + target).isEmpty();
            }
        }
    }

    @Test
    void anArrayOfAUserTypeIsRefusedOnlyOnAPostgresTarget() {
        CapturedColumn moods = col("mood[]", "_mood", 'b', 'A');
        assertThat(TypeSupport.refusal(moods, TypeSupport.Target.POSTGRESQL)).hasValueSatisfying(m ->
                assertThat(m).contains("table public.typed column v has type mood[]", "an array of mood",
                        "leave the table out of source.tables", "ALTER TABLE \"public\".\"typed\" ALTER COLUMN \"v\" TYPE"));
        assertThat(TypeSupport.refusal(moods, TypeSupport.Target.SQLITE)).isEmpty();
        assertThat(TypeSupport.refusal(moods, TypeSupport.Target.MARIADB)).isEmpty();
    }

    @Test
    void typesCarriedAsTextArriveOnEveryTarget() {
        for (String t : new String[] {"xml", "cidr", "macaddr", "macaddr8", "tsvector", "tsquery"}) {
            for (TypeSupport.Target target : TypeSupport.Target.values()) {
                assertThat(TypeSupport.refusal(col(t, t, 'b', 'U'), target)).as(t + " on " + target).isEmpty();
            }
        }
        for (String t : new String[] {"int4range", "int8range", "numrange", "daterange", "tsrange"}) {
            assertThat(TypeSupport.refusal(col(t, t, 'r', 'R'), TypeSupport.Target.POSTGRESQL)).as(t).isEmpty();
        }
        assertThat(TypeSupport.refusal(col("tstzrange", "tstzrange", 'r', 'R'), TypeSupport.Target.SQLITE)).isPresent();
        assertThat(TypeSupport.refusal(col("floatrange", "floatrange", 'r', 'R'), TypeSupport.Target.SQLITE)).isPresent();
    }

    @Test
    void geometricLsnCharNameOidAndMultirangesArriveOnEveryTarget() {
        for (String t : new String[] {"point", "line", "lseg", "box", "path", "polygon", "circle", "pg_lsn", "char", "name", "oid", "varbit"}) {
            for (TypeSupport.Target target : TypeSupport.Target.values()) {
                assertThat(TypeSupport.refusal(col(t, t, 'b', 'G'), target)).as(t + " on " + target).isEmpty();
            }
        }
        for (String t : new String[] {"int4multirange", "int8multirange", "nummultirange", "datemultirange", "tsmultirange"}) {
            for (TypeSupport.Target target : TypeSupport.Target.values()) {
                assertThat(TypeSupport.refusal(col(t, t, 'm', 'R'), target)).as(t + " on " + target).isEmpty();
            }
        }
        assertThat(TypeSupport.refusal(col("tstzmultirange", "tstzmultirange", 'm', 'R'), TypeSupport.Target.POSTGRESQL)).isPresent();
        assertThat(TypeSupport.refusal(col("_point", "_point", 'b', 'A'), TypeSupport.Target.POSTGRESQL)).isEmpty();
        assertThat(TypeSupport.refusal(col("bit(3)", "bit", 'b', 'V'), TypeSupport.Target.SQLITE)).isEmpty();
        assertThat(TypeSupport.refusal(col("bit(1)", "bit", 'b', 'V'), TypeSupport.Target.POSTGRESQL))
                .hasValueSatisfying(m -> assertThat(m).contains("has type bit(1)", "boolean"));
    }

    @Test
    void arrayCategoryTypesThatAreNotArraysStayRefused() {
        assertThat(TypeSupport.refusal(col("int2vector", "int2vector", 'b', 'A'), TypeSupport.Target.SQLITE))
                .hasValueSatisfying(m -> assertThat(m).contains("not a type Tidemark carries exactly"));
    }

    @Test
    void unconstrainedNumericIsRefusedOnlyOnMariaDb() {
        CapturedColumn n = col("numeric", "numeric", 'b', 'N');
        assertThat(TypeSupport.refusal(n, TypeSupport.Target.MARIADB)).hasValueSatisfying(m ->
                assertThat(m).contains("column v has type numeric", "TYPE numeric(p,s)"));
        assertThat(TypeSupport.refusal(n, TypeSupport.Target.POSTGRESQL)).isEmpty();
        assertThat(TypeSupport.refusal(n, TypeSupport.Target.SQLITE)).isEmpty();
        assertThat(TypeSupport.refusal(col("numeric(20,6)", "numeric", 'b', 'N'), TypeSupport.Target.MARIADB)).isEmpty();
    }

    @Test
    void timetzIsRefusedEverywhere() {
        for (TypeSupport.Target target : TypeSupport.Target.values()) {
            assertThat(TypeSupport.refusal(col("time with time zone", "timetz", 'b', 'D'), target)).hasValueSatisfying(m ->
                    assertThat(m).contains("time with time zone", "offset"));
        }
    }

    @Test
    void enumsArriveOnEveryTarget() {
        CapturedColumn mood = col("mood", "mood", 'e', 'E');
        for (TypeSupport.Target target : TypeSupport.Target.values()) {
            assertThat(TypeSupport.refusal(mood, target)).as(target.name()).isEmpty(); // a PostgreSQL target: EnumTargetCheck
        }
    }

    @Test
    void domainsUserRangesAndUnlistedTypesAreRefused() {
        assertThat(TypeSupport.refusal(new CapturedColumn(T, "v", "positive", "int4", 'b', 'N', "positive"),
                TypeSupport.Target.SQLITE)).hasValueSatisfying(m -> assertThat(m).contains("domain"));
        assertThat(TypeSupport.refusal(col("floatrange", "floatrange", 'r', 'R'), TypeSupport.Target.SQLITE)).isPresent();
        assertThat(TypeSupport.refusal(col("money", "money", 'b', 'N'), TypeSupport.Target.POSTGRESQL))
                .hasValueSatisfying(m -> assertThat(m).contains("not a type Tidemark carries exactly"));
    }
}
