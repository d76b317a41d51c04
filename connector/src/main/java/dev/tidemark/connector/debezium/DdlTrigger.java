package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The event trigger Tidemark creates and owns on the source so that every schema change of a captured table arrives
 * in the change stream, in commit order, before the first row that depends on it: PostgreSQL's logical decoding
 * carries no DDL.
 *
 * <p>One plpgsql function and two event triggers per pipeline, named after it ({@link #names}), on
 * {@code ALTER TABLE} only. At {@code ddl_command_start} the function keeps the columns of every captured table
 * (attribute number, name, type, not null, default, whether the default is a constant, identity, generated) in a
 * transaction-local setting; at {@code ddl_command_end} it compares them with the catalog and, for each captured table
 * whose columns or name changed, writes a transactional logical decoding message with prefix {@value #PREFIX} in the
 * DDL's own transaction: {@code {"pipeline", "tag", "before", "after"}} ({@link DdlMessage}), signed
 * ({@link DdlSignature}) with a key kept in a table only the owner may read ({@link Names#keyTable()}).
 *
 * <p>For a column added with a non-volatile default the message carries, as text, the value every existing row got:
 * PostgreSQL's own {@code attmissingval}, read, never evaluated here. A default is a constant when its expression
 * calls only immutable functions and holds no SQL value function ({@code CURRENT_TIMESTAMP}), sequence, parameter,
 * sub-query or I/O coercion (a stricter form of PostgreSQL's {@code contain_volatile_functions}: stable functions
 * such as {@code now()} count as not constant).
 *
 * <p>The function runs with its owner's rights ({@code SECURITY DEFINER}, {@code search_path} pinned to
 * {@code pg_catalog}), so a DDL by any user can write the message. Created only when the source user may
 * ({@link EventTriggerPrivilege}); replaced at every start (the captured tables may have changed); removed with the
 * key table by {@code tidemark drop} ({@link #drop}). Identifiers are quoted; the table names and the pipeline name
 * enter the function's body as SQL string literals.
 */
public final class DdlTrigger {
    /** The prefix of the schema-change messages. */
    public static final String PREFIX = SourceSlots.MESSAGE_PREFIX + "-ddl";

    private DdlTrigger() {
    }

    /** The function's and the two triggers' names for one pipeline. */
    record Names(String schema, String function, String startTrigger, String endTrigger, String setting, String keyTable) {
    }

    static Names names(PipelineConfig config) {
        String base = "tidemark_ddl_" + shortName(config.name());
        String hash = Integer.toHexString(config.name().hashCode() & 0x7fffffff);
        String schema = config.source().tables().isEmpty() ? "public" : config.source().tables().get(0).schema();
        return new Names(schema, base, base + "_start", base + "_end", "tidemark_" + hash + ".ddl_before", base + "_key");
    }

    /** The pipeline name cut to fit PostgreSQL's 63-byte identifiers with the suffixes added here. */
    private static String shortName(String name) {
        String clean = name.replaceAll("[^A-Za-z0-9_]", "_");
        if (clean.length() <= 36 && clean.equals(name)) {
            return clean;
        }
        String hash = Integer.toHexString(name.hashCode() & 0x7fffffff);
        return (clean.length() > 27 ? clean.substring(0, 27) : clean) + "_" + hash;
    }

    /**
     * Creates (or replaces) the function and both triggers, in one transaction, and returns the key that signs their
     * messages ({@link DdlSignature}): kept in a table only its owner may read (created once), so a message another
     * user writes with the same prefix is told apart and ignored.
     */
    static String install(Connection c, PipelineConfig config) throws SQLException {
        Names n = names(config);
        String keyTable = q(n.schema()) + "." + q(n.keyTable());
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + keyTable + " (key text NOT NULL)");
            s.execute("REVOKE ALL ON TABLE " + keyTable + " FROM PUBLIC");
            s.execute("INSERT INTO " + keyTable + " (key) SELECT md5(gen_random_uuid()::text) || md5(gen_random_uuid()::text) "
                    + "WHERE NOT EXISTS (SELECT 1 FROM " + keyTable + ")");
            String key;
            try (var rs = s.executeQuery("SELECT key FROM " + keyTable + " LIMIT 1")) {
                rs.next();
                key = rs.getString(1);
            }
            s.execute(functionSql(config, n));
            s.execute("DROP EVENT TRIGGER IF EXISTS " + q(n.startTrigger()));
            s.execute("DROP EVENT TRIGGER IF EXISTS " + q(n.endTrigger()));
            s.execute("CREATE EVENT TRIGGER " + q(n.startTrigger()) + " ON ddl_command_start WHEN TAG IN ('ALTER TABLE') "
                    + "EXECUTE FUNCTION " + q(n.schema()) + "." + q(n.function()) + "()");
            s.execute("CREATE EVENT TRIGGER " + q(n.endTrigger()) + " ON ddl_command_end WHEN TAG IN ('ALTER TABLE') "
                    + "EXECUTE FUNCTION " + q(n.schema()) + "." + q(n.function()) + "()");
            c.commit();
            return key;
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /**
     * What of the pipeline's triggers, function and key table exists on the source, one line each ({@code event trigger
     * "…"}, {@code function "s"."f"()}, the partitions' truncate triggers and their function, {@code table "s"."k"}):
     * what {@link #drop} removes.
     */
    public static java.util.List<String> present(Connection c, PipelineConfig config) throws SQLException {
        Names n = names(config);
        java.util.List<String> out = new java.util.ArrayList<>();
        try (var ps = c.prepareStatement("SELECT evtname FROM pg_event_trigger WHERE evtname IN (?, ?) ORDER BY evtname")) {
            ps.setString(1, n.startTrigger());
            ps.setString(2, n.endTrigger());
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add("event trigger " + q(rs.getString(1)));
                }
            }
        }
        String function = q(n.schema()) + "." + q(n.function());
        String keyTable = q(n.schema()) + "." + q(n.keyTable());
        try (var ps = c.prepareStatement("SELECT to_regprocedure(?) IS NOT NULL, to_regclass(?) IS NOT NULL")) {
            ps.setString(1, function + "()");
            ps.setString(2, keyTable);
            try (var rs = ps.executeQuery()) {
                rs.next();
                if (rs.getBoolean(1)) {
                    out.add("function " + function + "()");
                }
                out.addAll(PartitionTruncateTrigger.present(c, config));
                if (rs.getBoolean(2)) {
                    out.add("table " + keyTable + " (the key of the schema-change messages)");
                }
            }
        }
        return out;
    }

    /**
     * Drops the triggers, the function, the partitions' truncate triggers and their function ({@link
     * PartitionTruncateTrigger}) and the key table, those present; returns whether anything was there.
     */
    public static boolean drop(Connection c, PipelineConfig config) throws SQLException {
        if (present(c, config).isEmpty()) {
            return false;
        }
        Names n = names(config);
        try (Statement s = c.createStatement()) {
            s.execute("DROP EVENT TRIGGER IF EXISTS " + q(n.startTrigger()));
            s.execute("DROP EVENT TRIGGER IF EXISTS " + q(n.endTrigger()));
            s.execute("DROP FUNCTION IF EXISTS " + q(n.schema()) + "." + q(n.function()) + "()");
            PartitionTruncateTrigger.drop(c, config);
            s.execute("DROP TABLE IF EXISTS " + q(n.schema()) + "." + q(n.keyTable()));
        }
        return true;
    }

    /** The function's text (package-private for the unit test of its quoting). */
    static String functionSql(PipelineConfig config, Names n) {
        String tables = config.source().tables().stream()
                .map(t -> literal(q(t.schema()) + "." + q(t.table())))
                .collect(Collectors.joining(", "));
        String body = """
                DECLARE
                  captured text[] := ARRAY[%s]::text[];
                  before jsonb;
                  b jsonb;
                  a jsonb;
                  sign_key text;
                  message_text text;
                BEGIN
                  IF TG_EVENT = 'ddl_command_start' THEN
                    SELECT coalesce(jsonb_agg(%s), '[]'::jsonb) INTO before
                      FROM unnest(captured) AS nm, LATERAL (SELECT to_regclass(nm) AS rel) x WHERE x.rel IS NOT NULL;
                    PERFORM set_config(%s, before::text, true);
                    RETURN;
                  END IF;
                  before := nullif(current_setting(%s, true), '')::jsonb;
                  IF before IS NULL THEN
                    RETURN;
                  END IF;
                  PERFORM set_config(%s, '', true);
                  SELECT key INTO sign_key FROM %s LIMIT 1;
                  FOR b IN SELECT * FROM jsonb_array_elements(before) LOOP
                    a := %s;
                    IF a IS DISTINCT FROM b THEN
                      message_text := jsonb_build_object('v', 1, 'pipeline', %s::text, 'tag', TG_TAG, 'before', b, 'after', a)::text;
                      PERFORM pg_logical_emit_message(true, %s, md5(sign_key || message_text) || message_text);
                    END IF;
                  END LOOP;
                END
                """.formatted(tables, columnsOf(n, "x.rel"), literal(n.setting()), literal(n.setting()), literal(n.setting()),
                q(n.schema()) + "." + q(n.keyTable()), columnsOf(n, "(b->>'oid')::oid"), literal(config.name()), literal(PREFIX));
        return "CREATE OR REPLACE FUNCTION " + q(n.schema()) + "." + q(n.function()) + "() RETURNS event_trigger "
                + "LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS " + dollar(body);
    }

    /** The jsonb of one table's columns ({@code null} when the relation is gone), for the relation {@code rel}. */
    private static String columnsOf(Names n, String rel) {
        return """
                (SELECT jsonb_build_object('oid', c.oid::bigint, 'schema', ns.nspname, 'table', c.relname, 'columns',
                  coalesce((SELECT jsonb_agg(jsonb_build_object('attnum', at.attnum, 'name', at.attname,
                      'type', format_type(at.atttypid, at.atttypmod), 'typname', ty.typname, 'typmod', at.atttypmod,
                      'notnull', at.attnotnull, 'identity', at.attidentity <> '', 'generated', at.attgenerated <> '',
                      'value', CASE WHEN at.atthasmissing THEN (at.attmissingval::text::text[])[1] END,
                      'default', CASE WHEN at.attgenerated = '' THEN pg_get_expr(d.adbin, d.adrelid) END,
                      'constant', d.adbin IS NULL OR (d.adbin::text !~ '\\{(SQLVALUEFUNCTION|NEXTVALEXPR|PARAM|SUBLINK|COERCEVIAIO|ARRAYCOERCEEXPR)'
                        AND NOT EXISTS (SELECT 1 FROM regexp_matches(d.adbin::text, ':(?:funcid|opfuncid) (\\d+)', 'g') m
                          JOIN pg_proc p ON p.oid = m[1]::oid WHERE p.provolatile <> 'i')))
                    ORDER BY at.attnum)
                    FROM pg_attribute at JOIN pg_type ty ON ty.oid = at.atttypid
                    LEFT JOIN pg_attrdef d ON d.adrelid = at.attrelid AND d.adnum = at.attnum
                    WHERE at.attrelid = c.oid AND at.attnum > 0 AND NOT at.attisdropped), '[]'::jsonb))
                  FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace WHERE c.oid = %s)""".formatted(rel);
    }

    /**
     * {@code function "s"."f"()} when the argument-less function {@code schema.function} exists, else empty: one line
     * of a {@code present} listing.
     */
    static Optional<String> functionPresent(Connection c, String schema, String function) throws SQLException {
        String name = q(schema) + "." + q(function) + "()";
        try (var ps = c.prepareStatement("SELECT to_regprocedure(?) IS NOT NULL")) {
            ps.setString(1, name);
            try (var rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1) ? Optional.of("function " + name) : Optional.empty();
            }
        }
    }

    /** A SQL string literal of {@code text}. */
    static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    static String q(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** {@code body} in dollar quotes whose tag it does not contain. */
    static String dollar(String body) {
        String tag = "tm";
        while (body.contains("$" + tag + "$")) {
            tag = tag + "x";
        }
        return "$" + tag + "$\n" + body + "$" + tag + "$";
    }
}
