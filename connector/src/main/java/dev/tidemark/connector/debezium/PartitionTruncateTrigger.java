package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The statement-level {@code AFTER TRUNCATE} trigger Tidemark creates and owns on every leaf partition of a captured
 * partitioned table, so that a {@code TRUNCATE} of one partition reaches capture: with {@code publish_via_partition_root}
 * PostgreSQL's pgoutput publishes a {@code TRUNCATE} of the root only, never one of a partition.
 *
 * <p>One plpgsql function and one trigger name per pipeline ({@link #names}), installed in event-trigger mode beside
 * {@link DdlTrigger}, whose key signs the messages too ({@link DdlSignature}). The function writes a transactional
 * logical decoding message with prefix {@value #PREFIX} in the truncating transaction, so it sits in the stream in
 * commit order: {@code {"v", "pipeline", "oid", "schema", "table", "root": {"schema", "table"}}} ({@link
 * PartitionTruncate.Message}); a table that is no partition (any more) writes none. It runs with its owner's rights
 * ({@code SECURITY DEFINER}, {@code search_path} pinned to {@code pg_catalog}). {@link #install} puts the trigger on
 * every leaf and takes it off tables that are no longer one; a partition created or attached while capture runs gets
 * it in the DDL's own transaction from {@link NewPartitionTrigger}, and from {@link SourceTablesWatch} ({@link #addTo})
 * about a second later; {@code tidemark drop} removes the triggers and the function
 * ({@link #drop}, through {@link DdlTrigger#drop}). Nothing else of the tables is changed.
 */
final class PartitionTruncateTrigger {
    /** The prefix of the truncate messages. */
    static final String PREFIX = SourceSlots.MESSAGE_PREFIX + "-truncate";

    private PartitionTruncateTrigger() {
    }

    /** The function's and the trigger's names for one pipeline, and the key table that signs the messages. */
    record Names(String schema, String function, String trigger, String keyTable) {
    }

    static Names names(PipelineConfig config) {
        DdlTrigger.Names d = DdlTrigger.names(config);
        String base = "tidemark_trunc_" + d.function().substring("tidemark_ddl_".length());
        return new Names(d.schema(), base, base, d.keyTable());
    }

    /**
     * Puts the trigger on each of the {@code tree}'s leaves that lacks it (creating or replacing the function), takes it
     * off every other table and installs {@link NewPartitionTrigger} for its roots; with no captured root, removes
     * triggers, function and that event trigger. The key table must exist ({@link DdlTrigger#install}).
     */
    static void install(Connection c, PipelineConfig config, PartitionedTables.Leaves tree) throws SQLException {
        Names n = names(config);
        if (tree.roots().isEmpty()) {
            drop(c, config);
            return;
        }
        try (Statement s = c.createStatement()) {
            s.execute(functionSql(config, n));
        }
        for (TableId t : triggered(c, n)) {
            if (!tree.leaves().contains(t)) {
                dropFrom(c, n, t);
            }
        }
        addWhereMissing(c, n, tree.leaves());
        NewPartitionTrigger.install(c, config, tree.roots());
    }

    /** Puts the trigger on each of {@code leaves} that lacks it (the function must exist). */
    static void addWhereMissing(Connection c, Names n, List<TableId> leaves) throws SQLException {
        List<TableId> triggered = triggered(c, n);
        for (TableId leaf : leaves) {
            if (!triggered.contains(leaf)) {
                addTo(c, n, leaf);
            }
        }
    }

    /** The line that says at start which partitions carry the trigger. */
    static String startLine(PipelineConfig config, PartitionedTables.Leaves leaves) {
        Names n = names(config);
        return "capture " + config.name() + ": TRUNCATE of one partition of " + leaves.roots().stream().map(TableId::toString)
                .collect(java.util.stream.Collectors.joining(", ")) + ": trigger \"" + n.trigger() + "\" (function " + n.schema() + "."
                + n.function() + ") on its " + leaves.leaves().size() + " partitions writes it into the stream, where it stops capture";
    }

    /** Puts the trigger on {@code leaf} (replacing it when there). */
    static void addTo(Connection c, Names n, TableId leaf) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE OR REPLACE TRIGGER " + DdlTrigger.q(n.trigger()) + " AFTER TRUNCATE ON " + quoted(leaf)
                    + " FOR EACH STATEMENT EXECUTE FUNCTION " + DdlTrigger.q(n.schema()) + "." + DdlTrigger.q(n.function()) + "()");
        }
    }

    /** What of the triggers and the function exists, one line each ({@code trigger "t" on "s"."p"}, {@code function "s"."f"()}). */
    static List<String> present(Connection c, PipelineConfig config) throws SQLException {
        Names n = names(config);
        List<String> out = new ArrayList<>(NewPartitionTrigger.present(c, config));
        for (TableId t : triggered(c, n)) {
            out.add("trigger " + DdlTrigger.q(n.trigger()) + " on " + quoted(t));
        }
        DdlTrigger.functionPresent(c, n.schema(), n.function()).ifPresent(out::add);
        return out;
    }

    /** Drops {@link NewPartitionTrigger}, every table's trigger and the function, those present. */
    static void drop(Connection c, PipelineConfig config) throws SQLException {
        Names n = names(config);
        NewPartitionTrigger.drop(c, config);
        for (TableId t : triggered(c, n)) {
            dropFrom(c, n, t);
        }
        try (Statement s = c.createStatement()) {
            s.execute("DROP FUNCTION IF EXISTS " + DdlTrigger.q(n.schema()) + "." + DdlTrigger.q(n.function()) + "()");
        }
    }

    private static void dropFrom(Connection c, Names n, TableId t) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TRIGGER IF EXISTS " + DdlTrigger.q(n.trigger()) + " ON " + quoted(t));
        }
    }

    /** The tables that carry the trigger (by its name, calling this pipeline's function). */
    private static List<TableId> triggered(Connection c, Names n) throws SQLException {
        String sql = "SELECT ns.nspname, k.relname FROM pg_trigger g JOIN pg_class k ON k.oid = g.tgrelid "
                + "JOIN pg_namespace ns ON ns.oid = k.relnamespace JOIN pg_proc p ON p.oid = g.tgfoid "
                + "JOIN pg_namespace pn ON pn.oid = p.pronamespace WHERE g.tgname = ? AND p.proname = ? AND pn.nspname = ? "
                + "ORDER BY 1, 2";
        List<TableId> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, n.trigger());
            ps.setString(2, n.function());
            ps.setString(3, n.schema());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new TableId(rs.getString(1), rs.getString(2)));
                }
            }
        }
        return out;
    }

    /** The function's text (package-private for the unit test of its quoting). */
    static String functionSql(PipelineConfig config, Names n) {
        String body = """
                DECLARE
                  root jsonb;
                  sign_key text;
                  message_text text;
                BEGIN
                  SELECT jsonb_build_object('schema', ns.nspname, 'table', k.relname) INTO root
                    FROM pg_class k JOIN pg_namespace ns ON ns.oid = k.relnamespace
                    WHERE k.oid = pg_partition_root(TG_RELID) AND k.oid <> TG_RELID;
                  IF root IS NULL THEN
                    RETURN NULL;
                  END IF;
                  SELECT key INTO sign_key FROM %s LIMIT 1;
                  message_text := jsonb_build_object('v', 1, 'pipeline', %s::text, 'oid', TG_RELID::bigint,
                    'schema', TG_TABLE_SCHEMA, 'table', TG_TABLE_NAME, 'root', root)::text;
                  PERFORM pg_logical_emit_message(true, %s, md5(sign_key || message_text) || message_text);
                  RETURN NULL;
                END
                """.formatted(DdlTrigger.q(n.schema()) + "." + DdlTrigger.q(n.keyTable()), DdlTrigger.literal(config.name()),
                DdlTrigger.literal(PREFIX));
        return "CREATE OR REPLACE FUNCTION " + DdlTrigger.q(n.schema()) + "." + DdlTrigger.q(n.function()) + "() RETURNS trigger "
                + "LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS " + DdlTrigger.dollar(body);
    }

    private static String quoted(TableId t) {
        return DdlTrigger.q(t.schema()) + "." + DdlTrigger.q(t.table());
    }
}
