package dev.tidemark.connector.debezium;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * Capture's offsets file: Debezium's offsets, written atomically and durably, read back strictly.
 *
 * <p>Format (version 1), UTF-8 text:
 * <pre>
 * tidemark-offsets v1 entries=1 crc32c=5e0f4a1c
 * WyJvcmRlcnMiLHsic2VydmVyIjoib3JkZXJzIn1d eyJsc25fcHJvYyI6MjM0NTY3OCwibHNuIjoyMzQ1Njc4fQ==
 * </pre>
 * one line per entry (Base64 of the key, a space, Base64 of the value or {@code -} for none), the checksum (CRC-32C)
 * covering every byte after the header line. {@link #write} writes a temporary file next to the target, forces it
 * to disk, renames it over the target atomically and forces the directory, so a crash leaves either the old or the
 * new file, never a torn one. {@link #read} turns every other shape (empty, truncated, checksum mismatch, unknown
 * version) into {@link StoredOffsets.Damaged} — never into "no offsets". A file in the format of Kafka's
 * {@code FileOffsetBackingStore} (a Java-serialised map, written by older Tidemark versions) is read once so an
 * upgrade keeps its position; the next write replaces it with version 1.
 */
public final class OffsetsFile {
    static final String MAGIC = "tidemark-offsets";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> LSN_FIELDS = List.of("lsn", "lsn_proc", "lsn_commit");

    private OffsetsFile() {
    }

    /** Reads the file; never throws for a missing or damaged file (those are results), only for I/O errors. */
    public static StoredOffsets read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new StoredOffsets.Absent(file);
        } catch (IOException e) {
            return new StoredOffsets.Damaged(file, "cannot read it: " + e.getMessage());
        }
        if (bytes.length == 0) {
            return new StoredOffsets.Damaged(file, "the file is empty");
        }
        if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xAC && (bytes[1] & 0xFF) == 0xED) {
            return readLegacy(file, bytes);
        }
        return parse(file, bytes);
    }

    static StoredOffsets parse(Path file, byte[] bytes) {
        int nl = indexOf(bytes, (byte) '\n');
        if (nl < 0) {
            return new StoredOffsets.Damaged(file, "no complete header line (truncated?)");
        }
        String header = new String(bytes, 0, nl, StandardCharsets.UTF_8);
        String[] parts = header.split(" ");
        if (parts.length != 4 || !parts[0].equals(MAGIC) || !parts[2].startsWith("entries=") || !parts[3].startsWith("crc32c=")) {
            return new StoredOffsets.Damaged(file, "not a Tidemark offsets file (header '" + abbreviate(header) + "')");
        }
        if (!parts[1].equals("v1")) {
            return new StoredOffsets.Damaged(file, "offsets format " + parts[1] + " is not known to this version (expected v1)");
        }
        int expectedEntries;
        long expectedCrc;
        try {
            expectedEntries = Integer.parseInt(parts[2].substring("entries=".length()));
            expectedCrc = Long.parseLong(parts[3].substring("crc32c=".length()), 16);
        } catch (NumberFormatException e) {
            return new StoredOffsets.Damaged(file, "unreadable header '" + abbreviate(header) + "'");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, nl + 1, bytes.length - nl - 1);
        if (crc.getValue() != expectedCrc) {
            return new StoredOffsets.Damaged(file, String.format(Locale.ROOT,
                    "checksum mismatch (header says crc32c=%08x, content has %08x; truncated or overwritten?)", expectedCrc, crc.getValue()));
        }
        String body = new String(bytes, nl + 1, bytes.length - nl - 1, StandardCharsets.UTF_8);
        Map<ByteBuffer, ByteBuffer> entries = new HashMap<>();
        try {
            for (String line : body.split("\n")) {
                if (line.isEmpty()) {
                    continue;
                }
                String[] kv = line.split(" ");
                if (kv.length != 2) {
                    return new StoredOffsets.Damaged(file, "malformed entry line");
                }
                entries.put(ByteBuffer.wrap(Base64.getDecoder().decode(kv[0])),
                        kv[1].equals("-") ? null : ByteBuffer.wrap(Base64.getDecoder().decode(kv[1])));
            }
        } catch (IllegalArgumentException e) {
            return new StoredOffsets.Damaged(file, "malformed entry: " + e.getMessage());
        }
        if (entries.size() != expectedEntries) {
            return new StoredOffsets.Damaged(file, "header names " + expectedEntries + " entries, file has " + entries.size());
        }
        return new StoredOffsets.Present(file, entries, furthest(entries), false, snapshotIncomplete(entries));
    }

    private static StoredOffsets readLegacy(Path file, byte[] bytes) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            Object o = in.readObject();
            if (!(o instanceof Map<?, ?> raw)) {
                return new StoredOffsets.Damaged(file, "legacy offsets file holds " + (o == null ? "null" : o.getClass().getName()) + ", not a map");
            }
            Map<ByteBuffer, ByteBuffer> entries = new HashMap<>();
            for (Map.Entry<?, ?> e : raw.entrySet()) {
                if (!(e.getKey() instanceof byte[] k) || (e.getValue() != null && !(e.getValue() instanceof byte[]))) {
                    return new StoredOffsets.Damaged(file, "legacy offsets file holds entries that are not bytes");
                }
                entries.put(ByteBuffer.wrap(k), e.getValue() == null ? null : ByteBuffer.wrap((byte[]) e.getValue()));
            }
            return new StoredOffsets.Present(file, entries, furthest(entries), true, snapshotIncomplete(entries));
        } catch (IOException | ClassNotFoundException e) {
            return new StoredOffsets.Damaged(file, "legacy (Kafka FileOffsetBackingStore) offsets file cannot be read ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "; truncated?)");
        }
    }

    /**
     * True when a value was stored during the initial snapshot before its last row: Debezium's PostgreSQL offsets then
     * carry {@code snapshot} (the snapshot type) with neither {@code last_snapshot_record} nor {@code snapshot_completed}
     * true; offsets stored while streaming carry no {@code snapshot}, or {@code INCREMENTAL} while an incremental
     * snapshot (a table added, {@code tidemark snapshot}) reads chunks beside the stream, which resumes from them.
     */
    static boolean snapshotIncomplete(Map<ByteBuffer, ByteBuffer> entries) {
        for (ByteBuffer v : entries.values()) {
            if (v == null) {
                continue;
            }
            try {
                JsonNode n = JSON.readTree(bytes(v));
                JsonNode snapshot = n.get("snapshot");
                if (snapshot != null && !snapshot.isNull() && !"false".equalsIgnoreCase(snapshot.asText())
                        && !"INCREMENTAL".equalsIgnoreCase(snapshot.asText())
                        && !n.path("last_snapshot_record").asBoolean(false) && !n.path("snapshot_completed").asBoolean(false)) {
                    return true;
                }
            } catch (IOException e) {
                // not JSON: says nothing about a snapshot
            }
        }
        return false;
    }

    /** The furthest LSN any value names, or empty. Values that are not JSON objects are ignored. */
    static Optional<Lsn> furthest(Map<ByteBuffer, ByteBuffer> entries) {
        Lsn best = null;
        for (ByteBuffer v : entries.values()) {
            if (v == null) {
                continue;
            }
            try {
                JsonNode n = JSON.readTree(bytes(v));
                for (String field : LSN_FIELDS) {
                    JsonNode f = n.get(field);
                    if (f != null && f.canConvertToLong()) {
                        Lsn l = new Lsn(f.asLong());
                        if (best == null || l.isAfter(best)) {
                            best = l;
                        }
                    }
                }
            } catch (IOException e) {
                // not JSON: names no position
            }
        }
        return Optional.ofNullable(best);
    }

    /** Writes {@code entries} to {@code file} atomically and durably (temporary file, fsync, rename, fsync of the folder). */
    public static void write(Path file, Map<ByteBuffer, ByteBuffer> entries) throws IOException {
        writeAtomically(file, render(entries));
    }

    /** Writes {@code content} to a temporary file next to {@code file}, forces it, renames it over {@code file}, forces the folder. */
    static void writeAtomically(Path file, byte[] content) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = dir.resolve(file.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.wrap(content);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system of " + dir + " cannot rename atomically; capture offsets need one that can", e);
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            // some platforms cannot open a directory for sync; the rename itself is still atomic
        }
    }

    /** The furthest LSN one record's source offset names ({@code lsn}, {@code lsn_proc}, {@code lsn_commit}), or empty. */
    static Optional<Lsn> position(Map<String, ?> sourceOffset) {
        Lsn best = null;
        for (String field : LSN_FIELDS) {
            if (sourceOffset.get(field) instanceof Number n) {
                Lsn l = new Lsn(n.longValue());
                if (best == null || l.isAfter(best)) {
                    best = l;
                }
            }
        }
        return Optional.ofNullable(best);
    }

    static byte[] render(Map<ByteBuffer, ByteBuffer> entries) {
        // sorted so that equal offsets give equal files
        TreeMap<String, String> lines = new TreeMap<>();
        entries.forEach((k, v) -> lines.put(Base64.getEncoder().encodeToString(bytes(k)),
                v == null ? "-" : Base64.getEncoder().encodeToString(bytes(v))));
        StringBuilder body = new StringBuilder();
        lines.forEach((k, v) -> body.append(k).append(' ').append(v).append('\n'));
        byte[] b = body.toString().getBytes(StandardCharsets.UTF_8);
        CRC32C crc = new CRC32C();
        crc.update(b);
        byte[] header = String.format(Locale.ROOT, "%s v1 entries=%d crc32c=%08x%n", MAGIC, entries.size(), crc.getValue())
                .replace(System.lineSeparator(), "\n").getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[header.length + b.length];
        System.arraycopy(header, 0, out, 0, header.length);
        System.arraycopy(b, 0, out, header.length, b.length);
        return out;
    }

    private static byte[] bytes(ByteBuffer b) {
        ByteBuffer d = b.duplicate();
        byte[] out = new byte[d.remaining()];
        d.get(out);
        return out;
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static String abbreviate(String s) {
        String printable = s.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() > 40 ? printable.substring(0, 40) + "…" : printable;
    }
}
