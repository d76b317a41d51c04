package dev.tidemark.connector.debezium;

import dev.tidemark.event.TableId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The trees of the captured partitioned tables as capture last saw them, kept beside the offsets file as
 * {@code <offsets>.partitions} ({@code member <root oid> <oid> <leaf|branch> <schema.table>} per line, the root its
 * own first member), so that a partition detached, dropped or attached while capture was stopped (or within the
 * watch's second before a {@code kill -9}) is judged at the next start exactly as one changed while capture runs
 * ({@link SourceTablesWatch}).
 * Only the oid, name and kind of each member are kept; identity and logging are read from the catalog.
 */
final class PartitionTreeFile {
    private PartitionTreeFile() {
    }

    static Path fileFor(Path offsetsFile) {
        return offsetsFile.resolveSibling(offsetsFile.getFileName() + ".partitions");
    }

    /** The stored trees by root; empty when no file was written yet. */
    static Map<TableId, List<PartitionedTables.Member>> read(Path offsetsFile) {
        Path file = fileFor(offsetsFile);
        Map<TableId, List<PartitionedTables.Member>> out = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return out;
        }
        Map<Long, List<PartitionedTables.Member>> byRoot = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] p = line.split(" ", 5);
                if (p.length == 5 && p[0].equals("member")) {
                    byRoot.computeIfAbsent(Long.parseLong(p[1]), r -> new ArrayList<>())
                            .add(new PartitionedTables.Member(Long.parseLong(p[2]), TableId.parse(p[4]), p[3].equals("leaf"), 'f', false));
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
        byRoot.forEach((rootOid, members) -> members.stream().filter(m -> m.oid() == rootOid).findFirst()
                .ifPresent(root -> out.put(root.table(), members)));
        return out;
    }

    /** Replaces the file with {@code trees}, atomically. */
    static void write(Path offsetsFile, Map<TableId, List<PartitionedTables.Member>> trees) throws IOException {
        Path file = fileFor(offsetsFile);
        Files.createDirectories(file.getParent());
        StringBuilder body = new StringBuilder();
        trees.forEach((root, members) -> members.forEach(m -> body.append("member ").append(members.get(0).oid()).append(' ').append(m.oid())
                .append(' ').append(m.leaf() ? "leaf" : "branch").append(' ').append(m.table()).append('\n')));
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, body, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
