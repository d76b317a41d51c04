package dev.tidemark.connector.debezium;

import dev.tidemark.connector.config.SourceConfig;
import dev.tidemark.event.TableId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The set of tables a pipeline captures, with each table's relation OID, remembered beside the offsets file as
 * {@code <offsets>.tables} ({@code captured <oid> schema.table} per line, and {@code removed schema.table} for tables
 * no longer captured, whose target rows are kept). Capture compares it with the source at every start
 * ({@link TableChanges}); {@code tidemark status} lists the removed tables.
 */
public final class TableSet {
    private TableSet() {
    }

    /** What the file holds: the captured tables with their OIDs, and the tables no longer captured. */
    public record Stored(Map<TableId, Long> captured, List<TableId> removed) {
        public Stored {
            captured = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(captured));
            removed = List.copyOf(removed);
        }
    }

    public static Path fileFor(Path offsetsFile) {
        return offsetsFile.resolveSibling(offsetsFile.getFileName() + ".tables");
    }

    /** The stored set, or empty when capture never started with table tracking. */
    public static Optional<Stored> read(Path offsetsFile) {
        Path file = fileFor(offsetsFile);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        Map<TableId, Long> captured = new LinkedHashMap<>();
        List<TableId> removed = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] parts = line.split(" ", 3);
                if (parts.length == 3 && parts[0].equals("captured")) {
                    captured.put(TableId.parse(parts[2]), Long.parseLong(parts[1]));
                } else if (parts.length == 2 && parts[0].equals("removed")) {
                    removed.add(TableId.parse(parts[1]));
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return Optional.of(new Stored(captured, removed));
    }

    static void write(Path offsetsFile, Stored stored) throws IOException {
        Path file = fileFor(offsetsFile);
        Files.createDirectories(file.getParent());
        StringBuilder body = new StringBuilder();
        stored.captured().forEach((t, oid) -> body.append("captured ").append(oid).append(' ').append(name(t)).append('\n'));
        stored.removed().forEach(t -> body.append("removed ").append(name(t)).append('\n'));
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, body, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The relation OID of each configured table that exists, in configuration order. */
    static Map<TableId, Long> relations(Connection c, SourceConfig source) throws SQLException {
        Map<TableId, Long> out = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                + "WHERE n.nspname = ? AND c.relname = ?")) {
            for (TableId t : source.tables()) {
                ps.setString(1, t.schema());
                ps.setString(2, t.table());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        out.put(t, rs.getLong(1));
                    }
                }
            }
        }
        return out;
    }

    private static String name(TableId t) {
        return t.schema() + "." + t.table();
    }
}
