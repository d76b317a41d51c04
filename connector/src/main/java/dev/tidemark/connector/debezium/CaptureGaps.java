package dev.tidemark.connector.debezium;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tidemark.connector.config.PipelineConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The gaps the user accepted for capture ({@code --accept-gap}), one JSON line each, in {@code <stateDir>/<name>.gaps}
 * next to the offsets file: when, which slot, from which stored position to which slot position, and why. Appended
 * atomically and durably (the whole file rewritten through {@link OffsetsFile#writeAtomically}); read by
 * {@code tidemark status}. Lines that cannot be read are skipped by {@link #read}.
 */
public final class CaptureGaps {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One accepted gap: changes between {@code from} and {@code to} were not captured.
     *
     * @param from the stored position capture stood at ("unknown" when the offsets were missing or damaged)
     * @param to   the slot's position streaming started from ("the new slot's position" when a new slot was created)
     */
    public record Gap(String recordedAt, String slot, String from, String to, String reason) {
        /** One line for people: {@code from X to Y (slot "s", at T: reason)}. */
        public String describe() {
            return "from " + from + " to " + to + " (slot \"" + slot + "\", accepted " + recordedAt + ": " + reason + ")";
        }
    }

    private CaptureGaps() {
    }

    public static Path fileFor(PipelineConfig config) {
        return config.offsetsFile().resolveSibling(config.name() + ".gaps");
    }

    static void append(Path file, Gap gap) throws IOException {
        byte[] existing;
        try {
            existing = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            existing = new byte[0];
        }
        String text = new String(existing, StandardCharsets.UTF_8);
        if (!text.isEmpty() && !text.endsWith("\n")) {
            text += "\n";
        }
        text += JSON.writeValueAsString(gap) + "\n";
        OffsetsFile.writeAtomically(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /** The recorded gaps, oldest first; none when the file does not exist. */
    public static List<Gap> read(Path file) {
        List<Gap> out = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return out;
        }
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            try {
                out.add(JSON.readValue(line, Gap.class));
            } catch (IOException e) {
                // a damaged line: the others still count
            }
        }
        return out;
    }
}
