package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.connector.config.TargetAccess;
import dev.tidemark.event.TableId;
import dev.tidemark.jdbc.JdbcEndpoints;
import dev.tidemark.jdbc.UrlMask;
import dev.tidemark.jdbc.UsageException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * On a PostgreSQL target a captured enum column arrives as the same enum type, which Tidemark requires to exist there
 * (it does not create it): a type of the source type's name, found through the target connection's search path, with
 * the source's labels in the source's order. Checked at start; each column that lacks it is one line naming table,
 * column and type and the {@code CREATE TYPE} statement that makes it. The target is read only when an enum is captured.
 */
final class EnumTargetCheck {
    private static final String SOURCE_LABELS = "SELECT e.enumlabel FROM pg_attribute a JOIN pg_class k ON k.oid = a.attrelid "
            + "JOIN pg_namespace n ON n.oid = k.relnamespace JOIN pg_enum e ON e.enumtypid = a.atttypid "
            + "WHERE n.nspname = ? AND k.relname = ? AND a.attname = ? ORDER BY e.enumsortorder";
    private static final String TARGET_LABELS = "SELECT e.enumlabel FROM pg_enum e WHERE e.enumtypid = to_regtype(quote_ident(?)) "
            + "ORDER BY e.enumsortorder";

    private EnumTargetCheck() {
    }

    /**
     * Checks every captured enum column of {@code config} against its PostgreSQL target; nothing for other targets.
     *
     * @throws UsageException listing every enum column whose type the target lacks or spells differently
     */
    static void check(PipelineConfig config) {
        if (TypeSupport.target(dev.tidemark.jdbc.Databases.forUrl(config.target().jdbcUrl())) != TypeSupport.Target.POSTGRESQL) {
            return;
        }
        List<String> problems = new ArrayList<>();
        try (Connection source = openSource(config.source())) {
            Map<CapturedColumn, List<String>> enums = new LinkedHashMap<>();
            for (TableId t : config.source().tables()) {
                for (CapturedColumn c : SourcePreflight.columns(source, t)) {
                    if (c.kind() == 'e' && c.domain() == null && !config.source().excludes(t, c.column())) {
                        enums.put(c, CatalogRows.list(source, SOURCE_LABELS, rs -> rs.getString(1), t.schema(), t.table(), c.column()));
                    }
                }
            }
            if (enums.isEmpty()) {
                return; // the target is not read at all
            }
            try (Connection target = TargetAccess.open(config)) {
                for (Map.Entry<CapturedColumn, List<String>> e : enums.entrySet()) {
                    List<String> there = CatalogRows.list(target, TARGET_LABELS, rs -> rs.getString(1), e.getKey().typeName());
                    problem(e.getKey(), e.getValue(), there).ifPresent(problems::add);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot check the enum types of target " + UrlMask.mask(config.target().jdbcUrl())
                    + ": " + e.getMessage(), e);
        }
        if (!problems.isEmpty()) {
            throw new UsageException("target " + UrlMask.mask(config.target().jdbcUrl())
                    + " is not ready for CDC (nothing was changed):\n  " + String.join("\n  ", problems));
        }
    }

    /** Why enum column {@code c} with {@code labels} cannot arrive on a target whose type of its name has {@code there} (pure). */
    static Optional<String> problem(CapturedColumn c, List<String> labels, List<String> there) {
        String where = "table " + c.table() + " column " + c.column() + " has enum type " + c.typeName() + ": ";
        String wayOn = "leave the column out of capture (source.excludeColumns: [" + c.table() + "." + c.column() + "])";
        if (!c.typeName().equals(c.typeName().toLowerCase(Locale.ROOT))) {
            return Optional.of(where + "the change event spells the type's name in upper case, so only a lower-case enum name "
                    + "is carried; rename the type at the source (ALTER TYPE … RENAME TO …), or " + wayOn);
        }
        if (there.equals(labels)) {
            return Optional.empty();
        }
        String lack = there.isEmpty() ? "the target has no enum type " + c.typeName()
                : "the target's enum type " + c.typeName() + " has labels " + literals(there) + ", the source's are " + literals(labels);
        return Optional.of(where + lack + " (an enum arrives as the same type, which Tidemark does not create); create it on "
                + "the target (" + createType(c.typeName(), labels) + "), or " + wayOn);
    }

    /** The statement that creates enum {@code name} with {@code labels} in order. */
    static String createType(String name, List<String> labels) {
        return "CREATE TYPE " + SourcePreflight.quote(name) + " AS ENUM " + literals(labels);
    }

    private static String literals(List<String> labels) {
        return labels.stream().map(l -> "'" + l.replace("'", "''") + "'").collect(Collectors.joining(", ", "(", ")"));
    }

    private static Connection openSource(SourceConfig source) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", source.user());
        if (!source.password().isEmpty()) {
            p.setProperty("password", source.password().reveal());
        }
        return JdbcEndpoints.open(JdbcEndpoints.Side.SOURCE, source.jdbcUrl(), p);
    }
}
