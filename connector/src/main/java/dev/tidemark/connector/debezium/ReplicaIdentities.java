package dev.tidemark.connector.debezium;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.connector.config.PipelineConfig;
import dev.tidemark.event.TableId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The replica identities Tidemark replaced by {@code FULL} ({@code source.setReplicaIdentityFull}), kept in
 * {@code <stateDir>/<name>.replica-identity} (one JSON line per table: the table and the identity it had), so that
 * {@code tidemark drop} can put each back — and touches no table Tidemark did not change.
 *
 * <p>An identity is written as PostgreSQL's {@code relreplident}: {@code d} (default), {@code n} (nothing),
 * {@code f} (full), or {@code i:<index>} (using that index).
 */
public final class ReplicaIdentities {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One table whose identity Tidemark set to FULL, and what it was before. */
    public record Replaced(String schema, String table, String previous) {
        TableId id() {
            return new TableId(schema, table);
        }

        /** The clause that restores {@code previous}, e.g. {@code REPLICA IDENTITY USING INDEX "orders_code"}. */
        String restoreClause() {
            if (previous.startsWith("i:")) {
                return "REPLICA IDENTITY USING INDEX " + SourcePreflight.quote(previous.substring(2));
            }
            return "n".equals(previous) ? "REPLICA IDENTITY NOTHING" : "REPLICA IDENTITY DEFAULT";
        }
    }

    private ReplicaIdentities() {
    }

    public static Path fileFor(PipelineConfig config) {
        return config.stateDir().resolve(config.name() + ".replica-identity");
    }

    /** The current identity of each of {@code tables} that exists. */
    static Map<TableId, String> read(Connection c, List<TableId> tables) throws SQLException {
        Map<TableId, String> out = new LinkedHashMap<>();
        for (TableId t : tables) {
            current(c, t).ifPresent(i -> out.put(t, i));
        }
        return out;
    }

    static Optional<String> current(Connection c, TableId t) throws SQLException {
        String sql = "SELECT c.relreplident, (SELECT ic.relname FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid "
                + "WHERE i.indrelid = c.oid AND i.indisreplident LIMIT 1) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                + "WHERE n.nspname = ? AND c.relname = ?";
        return CatalogRows.first(c, sql, rs -> "i".equals(rs.getString(1)) ? "i:" + rs.getString(2) : rs.getString(1),
                t.schema(), t.table());
    }

    /**
     * Records the identities the preflight replaced by FULL ({@code before}: as they were), so that {@code tidemark drop}
     * can restore them.
     */
    static void recordReplaced(PipelineConfig config, SourceSlots slots, Map<TableId, String> before) {
        if (before.isEmpty()) {
            return;
        }
        try (Connection c = slots.connect()) {
            recordChanged(config, before, read(c, config.source().tables()));
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("cannot record the replica identities replaced on the source in "
                    + fileFor(config) + ": " + e.getMessage(), e);
        }
    }

    /**
     * Records the tables that were not FULL {@code before} and are FULL now (Tidemark's preflight set them), keeping
     * what an earlier start recorded.
     */
    static void recordChanged(PipelineConfig config, Map<TableId, String> before, Map<TableId, String> after) throws IOException {
        List<Replaced> known = readRecord(fileFor(config));
        List<Replaced> all = new ArrayList<>(known);
        before.forEach((t, was) -> {
            boolean recorded = known.stream().anyMatch(r -> r.id().equals(t));
            if (!"f".equals(was) && "f".equals(after.get(t)) && !recorded) {
                all.add(new Replaced(t.schema(), t.table(), was));
            }
        });
        if (all.size() == known.size()) {
            return;
        }
        StringBuilder text = new StringBuilder();
        for (Replaced r : all) {
            text.append(JSON.writeValueAsString(r)).append('\n');
        }
        Files.createDirectories(config.stateDir());
        OffsetsFile.writeAtomically(fileFor(config), text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** What the record file holds; none when it does not exist. Unreadable lines are skipped. */
    public static List<Replaced> readRecord(Path file) {
        List<Replaced> out = new ArrayList<>();
        if (!Files.exists(file)) {
            return out;
        }
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    try {
                        out.add(JSON.readValue(line, Replaced.class));
                    } catch (IOException e) {
                        // a damaged line: the others still count
                    }
                }
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    /**
     * Puts back each recorded identity on tables that are still FULL (one changed since by someone else is left as it
     * is); returns one line per table restored.
     */
    static List<String> restore(Connection c, List<Replaced> replaced) throws SQLException {
        List<String> done = new ArrayList<>();
        for (Replaced r : replaced) {
            if (!current(c, r.id()).map("f"::equals).orElse(false)) {
                continue;
            }
            try (Statement s = c.createStatement()) {
                s.execute("ALTER TABLE " + SourcePreflight.quote(r.schema()) + "." + SourcePreflight.quote(r.table()) + " " + r.restoreClause());
            }
            done.add("restored " + r.restoreClause() + " on " + r.id() + " (Tidemark had set FULL)");
        }
        return done;
    }
}
