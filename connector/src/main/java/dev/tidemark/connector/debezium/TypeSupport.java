package dev.tidemark.connector.debezium;

import dev.tidemark.jdbc.Database;
import dev.tidemark.jdbc.PostgresDatabase;
import dev.tidemark.jdbc.SqliteDatabase;
import java.util.Optional;
import java.util.Set;

/**
 * Which captured PostgreSQL column types arrive exactly on which target (pure; see {@code docs/types.md}).
 *
 * <p>Exactly means: on a PostgreSQL target, a column Tidemark creates has the source column's type and every value
 * the same text; on SQLite and MariaDB, a documented lossless representation. A column whose type is not known to
 * arrive exactly is refused before capture starts, one line naming table, column and type and the way on — capturing
 * it anyway would change values silently (Debezium turns a {@code timetz} into UTC without its offset). Arrays travel
 * as PostgreSQL's own text ({@link SourceTextConverter}).
 */
public final class TypeSupport {
    /** Where the rows go: a PostgreSQL target keeps source types; the others hold documented representations. */
    public enum Target { POSTGRESQL, SQLITE, MARIADB }

    /** Base types that arrive exactly on every target ({@code pg_type.typname}). */
    private static final Set<String> EXACT = Set.of("int2", "int4", "int8", "numeric", "float4", "float8", "bool",
            "text", "varchar", "bpchar", "bytea", "date", "time", "timestamp", "timestamptz", "json", "jsonb", "uuid",
            "interval", "inet");

    private TypeSupport() {
    }

    /**
     * Why an array of {@code element} ({@code pg_type.typname}) cannot be carried into {@code target}, or empty: every
     * target holds PostgreSQL's array text, and a PostgreSQL target creates the same array type, which exists there
     * for built-in element types only.
     */
    static Optional<String> arrayRefusal(String element, Target target) {
        if (target != Target.POSTGRESQL || EXACT.contains(element) || SourceTextConverter.TEXT_TYPES.contains(element)
                || element.equals("timetz")) {
            return Optional.empty();
        }
        return Optional.of("an array of " + element + " needs that element type on the PostgreSQL target, and Tidemark "
                + "creates only arrays of built-in types there");
    }

    /** The target family of a target database; one the sink cannot write to gets the strictest rules. */
    public static Target target(Database database) {
        if (database instanceof PostgresDatabase) {
            return Target.POSTGRESQL;
        }
        return database instanceof SqliteDatabase ? Target.SQLITE : Target.MARIADB;
    }

    /** Why {@code c} cannot be captured exactly into {@code target}, as one line, or empty when it can. */
    public static Optional<String> refusal(CapturedColumn c, Target target) {
        String where = "table " + c.table() + " column " + c.column() + " has type " + c.declared() + ": ";
        String wayOn = "; leave the column out of capture (source.excludeColumns: [" + c.table() + "." + c.column()
                + "]), leave the table out of source.tables, or change the column's type (ALTER TABLE "
                + SourcePreflight.quote(c.table().schema()) + "." + SourcePreflight.quote(c.table().table())
                + " ALTER COLUMN " + SourcePreflight.quote(c.column()) + " TYPE …)";
        if (c.domain() != null) {
            return Optional.of(where + "a domain (over " + c.typeName() + ") arrives as its base type, not as the domain" + wayOn);
        }
        if (c.typeName().equals("bit") && (c.declared().equals("bit(1)") || c.declared().equals("bit"))) {
            return Optional.of(where + "reconcile and watermark mode read a one-bit string as a boolean, so its text (1) "
                    + "could not be proved equal" + wayOn.replace("TYPE …", "TYPE boolean USING " + SourcePreflight.quote(c.column()) + " = B'1'"));
        }
        if ((c.kind() == 'b' || c.kind() == 'r' || c.kind() == 'm') && SourceTextConverter.TEXT_TYPES.contains(c.typeName())) {
            return Optional.empty(); // PostgreSQL's own text (SourceTextConverter)
        }
        if (c.category() == 'A' && SourceTextConverter.carriesAsText(c.typeName())) {
            return arrayRefusal(c.typeName().substring(1), target).map(why -> where + why + wayOn);
        }
        if (c.kind() == 'e') {
            return Optional.empty(); // on a PostgreSQL target as the same enum type, which EnumTargetCheck requires there
        }
        if (target == Target.MARIADB && c.typeName().equals("numeric") && c.declared().equals("numeric")) {
            return Optional.of(where + "MariaDB has no decimal without a fixed scale (DECIMAL(65,30) would change the "
                    + "scale and round)" + wayOn.replace("TYPE …", "TYPE numeric(p,s)"));
        }
        if (c.typeName().equals("timetz")) {
            return Optional.of(where + "Debezium converts time with time zone to UTC and drops its offset" + wayOn);
        }
        if (c.kind() != 'b' || !EXACT.contains(c.typeName())) {
            return Optional.of(where + "not a type Tidemark carries exactly (docs/types.md lists those it does)" + wayOn);
        }
        return Optional.empty();
    }
}
