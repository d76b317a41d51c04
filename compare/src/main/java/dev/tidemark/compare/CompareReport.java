package dev.tidemark.compare;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;

/**
 * Renders a {@link CompareResult} three ways: a plain-text table for the terminal ({@link CompareText}), JSON for
 * machines, and a self-contained HTML page ({@link CompareHtml}: inline CSS and SVG bar charts; no scripts, nothing
 * fetched) to keep next to the targets. Pure: no I/O.
 */
public final class CompareReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private CompareReport() {
    }

    /** The table the command prints; file names relative to {@code cwd} when under it. */
    public static String text(CompareResult r, Path cwd) {
        return CompareText.render(r, cwd);
    }

    /** A self-contained HTML page: figures, charts (inline SVG) and every difference with its cause. */
    public static String html(CompareResult r, Path cwd) {
        return CompareHtml.render(r, cwd);
    }

    /** The result as JSON: every field of {@link CompareResult}, plus {@code cdcEqual}, {@code equal} per target and the unexplained count. */
    public static String json(CompareResult r) {
        ObjectNode root = JSON.valueToTree(r);
        root.put("cdcEqual", r.cdcEqual());
        root.put("unexplained", r.unexplained().size());
        ((ObjectNode) root.get("cdc")).put("equal", r.cdc().equal());
        ((ObjectNode) root.get("watermark")).put("equal", r.watermark().equal());
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the compare result as JSON", e);
        }
    }

    /** {@code CDC} or {@code watermark}: a target's mode as the reports name it. */
    static String label(String mode) {
        return mode.equals("cdc") ? "CDC" : "watermark";
    }

    /** {@code file} relative to {@code cwd} when under it, else as it is. */
    static String display(String file, Path cwd) {
        Path p = Path.of(file);
        if (cwd != null && p.startsWith(cwd.toAbsolutePath())) {
            return cwd.toAbsolutePath().relativize(p).toString();
        }
        return file;
    }
}
