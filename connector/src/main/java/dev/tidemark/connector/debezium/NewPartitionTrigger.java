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
import java.util.stream.Collectors;

/**
 * The event trigger Tidemark creates and owns (event-trigger mode) so that a partition joining a captured partitioned
 * table ({@code CREATE TABLE … PARTITION OF}, {@code ALTER TABLE … ATTACH PARTITION}) gets {@link
 * PartitionTruncateTrigger}'s trigger, and {@code REPLICA IDENTITY FULL} when {@code source.setReplicaIdentityFull}
 * allows it, in the DDL's own transaction: a {@code TRUNCATE} of it at any later moment, the same transaction
 * included, reaches capture. {@link SourceTablesWatch} does the same about a second later and stays the fallback.
 *
 * <p>One plpgsql function and two event triggers per pipeline ({@link #names}) on {@code CREATE TABLE} and {@code
 * ALTER TABLE}: at {@code ddl_command_start} the function keeps the OIDs of every member of the captured trees in a
 * transaction-local setting; at {@code ddl_command_end} it acts on the members that were not there. Only members of
 * the captured roots are touched, and only those new to them (a replica identity changed by hand stays for {@link
 * IdentityDrift} to report). The end trigger's name sorts after {@link DdlTrigger}'s, so that trigger has compared
 * the columns before this one's own {@code ALTER TABLE … REPLICA IDENTITY FULL} fires it again (with nothing to
 * report). {@code SECURITY DEFINER}, {@code search_path} pinned; identifiers enter the function as string literals
 * and are quoted there by {@code format('%I')}. Installed and removed with the truncate trigger.
 */
final class NewPartitionTrigger {
    private NewPartitionTrigger() {
    }

    /** The function's and the two event triggers' names, and the transaction-local setting between them. */
    record Names(String schema, String function, String startTrigger, String endTrigger, String setting) {
    }

    static Names names(PipelineConfig config) {
        DdlTrigger.Names d = DdlTrigger.names(config);
        String base = d.function();
        return new Names(d.schema(), "tidemark_part_" + base.substring("tidemark_ddl_".length()), base + "_part_start",
                base + "_part_end", d.setting().replace(".ddl_before", ".part_before"));
    }

    /** Creates (or replaces) the function and both event triggers for the captured {@code roots}. */
    static void install(Connection c, PipelineConfig config, List<TableId> roots) throws SQLException {
        Names n = names(config);
        try (Statement s = c.createStatement()) {
            s.execute(functionSql(config, n, roots));
            s.execute("DROP EVENT TRIGGER IF EXISTS " + DdlTrigger.q(n.startTrigger()));
            s.execute("DROP EVENT TRIGGER IF EXISTS " + DdlTrigger.q(n.endTrigger()));
            for (String event : List.of("start", "end")) {
                s.execute("CREATE EVENT TRIGGER " + DdlTrigger.q(event.equals("start") ? n.startTrigger() : n.endTrigger())
                        + " ON ddl_command_" + event + " WHEN TAG IN ('CREATE TABLE', 'ALTER TABLE') EXECUTE FUNCTION "
                        + DdlTrigger.q(n.schema()) + "." + DdlTrigger.q(n.function()) + "()");
            }
        }
    }

    /** What of the event triggers and the function exists, one line each. */
    static List<String> present(Connection c, PipelineConfig config) throws SQLException {
        Names n = names(config);
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT evtname FROM pg_event_trigger WHERE evtname IN (?, ?) ORDER BY evtname")) {
            ps.setString(1, n.startTrigger());
            ps.setString(2, n.endTrigger());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add("event trigger " + DdlTrigger.q(rs.getString(1)));
                }
            }
        }
        DdlTrigger.functionPresent(c, n.schema(), n.function()).ifPresent(out::add);
        return out;
    }

    /** Drops both event triggers and the function, those present. */
    static void drop(Connection c, PipelineConfig config) throws SQLException {
        Names n = names(config);
        try (Statement s = c.createStatement()) {
            s.execute("DROP EVENT TRIGGER IF EXISTS " + DdlTrigger.q(n.startTrigger()));
            s.execute("DROP EVENT TRIGGER IF EXISTS " + DdlTrigger.q(n.endTrigger()));
            s.execute("DROP FUNCTION IF EXISTS " + DdlTrigger.q(n.schema()) + "." + DdlTrigger.q(n.function()) + "()");
        }
    }

    /**
     * The function's text (package-private for the unit test of its quoting). Worked example, root {@code public.m}
     * with leaves {@code m_1} (oid 16390) and {@code m_2} (16395), root oid 16385: {@code CREATE TABLE m_3 PARTITION
     * OF m …} first fires the start trigger, which keeps {@code {16385,16390,16395}}; at the end {@code
     * pg_partition_tree('"public"."m"')} also holds {@code m_3} (16400, a leaf, relkind {@code r}), which is not in the
     * kept set, so the function runs {@code CREATE OR REPLACE TRIGGER "tidemark_trunc_P" AFTER TRUNCATE ON
     * "public"."m_3" FOR EACH STATEMENT EXECUTE FUNCTION "public"."tidemark_trunc_P"()} and {@code ALTER TABLE
     * "public"."m_3" REPLICA IDENTITY FULL} (the latter fires both triggers again: the start keeps all four OIDs, the
     * end finds nothing new). An {@code ATTACH PARTITION} of a partitioned table adds each of its members alike.
     */
    static String functionSql(PipelineConfig config, Names n, List<TableId> roots) {
        PartitionTruncateTrigger.Names t = PartitionTruncateTrigger.names(config);
        String captured = roots.stream().map(r -> DdlTrigger.literal(DdlTrigger.q(r.schema()) + "." + DdlTrigger.q(r.table())))
                .collect(Collectors.joining(", "));
        String body = """
                DECLARE
                  roots text[] := ARRAY[%s]::text[];
                  kept oid[];
                  m record;
                BEGIN
                  IF TG_EVENT = 'ddl_command_start' THEN
                    PERFORM set_config(%s, coalesce((SELECT array_agg(t.relid::oid)
                      FROM unnest(roots) AS nm, LATERAL pg_partition_tree(to_regclass(nm)) t), '{}'::oid[])::text, true);
                    RETURN;
                  END IF;
                  kept := nullif(current_setting(%s, true), '')::oid[];
                  IF kept IS NULL THEN
                    RETURN;
                  END IF;
                  PERFORM set_config(%s, '', true);
                  FOR m IN SELECT ns.nspname, k.relname, k.relkind, k.relreplident
                      FROM unnest(roots) AS nm, LATERAL pg_partition_tree(to_regclass(nm)) t
                      JOIN pg_class k ON k.oid = t.relid::oid JOIN pg_namespace ns ON ns.oid = k.relnamespace
                      WHERE t.relid::oid <> ALL (kept) AND k.relkind IN ('r', 'p') LOOP
                    IF m.relkind = 'r' THEN
                      EXECUTE format('CREATE OR REPLACE TRIGGER %%I AFTER TRUNCATE ON %%I.%%I FOR EACH STATEMENT EXECUTE FUNCTION %%I.%%I()',
                        %s, m.nspname, m.relname, %s, %s);
                    END IF;
                    IF %s AND m.relreplident <> 'f' THEN
                      EXECUTE format('ALTER TABLE %%I.%%I REPLICA IDENTITY FULL', m.nspname, m.relname);
                    END IF;
                  END LOOP;
                END
                """.formatted(captured, DdlTrigger.literal(n.setting()), DdlTrigger.literal(n.setting()), DdlTrigger.literal(n.setting()),
                DdlTrigger.literal(t.trigger()), DdlTrigger.literal(t.schema()), DdlTrigger.literal(t.function()),
                config.source().setReplicaIdentityFull() ? "true" : "false");
        return "CREATE OR REPLACE FUNCTION " + DdlTrigger.q(n.schema()) + "." + DdlTrigger.q(n.function()) + "() RETURNS event_trigger "
                + "LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS " + DdlTrigger.dollar(body);
    }
}
