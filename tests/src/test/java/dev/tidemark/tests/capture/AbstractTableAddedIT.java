package dev.tidemark.tests.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.cli.status.StatusReader;
import dev.tidemark.connector.pipeline.Sidecar;
import dev.tidemark.event.TableId;
import dev.tidemark.tests.sink.TargetDatabase;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue "schema and topology changes", item 2: a table added to {@code source.tables} of a stopped pipeline must
 * arrive with every row it holds (snapshotted incrementally while the other tables stream), rows committed while the
 * pipeline was stopped included.
 */
abstract class AbstractTableAddedIT {
    static final TableId OLD = new TableId("public", "s9a");
    static final TableId ADDED = new TableId("public", "s9b");

    @TempDir
    Path dir;

    abstract TargetDatabase target() throws Exception;

    @Test
    void aTableAddedWhileStoppedArrivesWithEveryRow() throws Exception {
        try (TargetDatabase target = target(); CaptureFixture f = new CaptureFixture("tadd", dir, List.of(OLD, ADDED))) {
            TopologyWorld w = new TopologyWorld(f, target);
            f.sql("CREATE TABLE public.s9a (id int PRIMARY KEY, note text)",
                    "INSERT INTO public.s9a SELECT g, 'a' || g FROM generate_series(1, 100) g");
            try (Sidecar s = f.start(w.config(List.of(OLD)))) {
                w.awaitEqual(s, List.of(OLD));
            }
            f.sql("CREATE TABLE public.s9b (id int PRIMARY KEY, note text)",
                    "INSERT INTO public.s9b SELECT g, 'b' || g FROM generate_series(1, 500) g",
                    "INSERT INTO public.s9b VALUES (501, 'while stopped')",
                    "INSERT INTO public.s9a VALUES (101, 'while stopped')");
            try (Sidecar s = f.start(w.config(List.of(OLD, ADDED)))) {
                f.sql("INSERT INTO public.s9b VALUES (502, 'after the start')", "INSERT INTO public.s9a VALUES (102, 'after the start')");
                w.awaitEqual(s, List.of(OLD, ADDED));
                assertThat(w.compare(ADDED).targetRows()).as("rows of " + ADDED + " in the target").isEqualTo(502L);
                assertThat(s.failure()).isEmpty();
            }
            // and removed again: no longer captured, its target rows kept, status says so
            try (Sidecar s = f.start(w.config(List.of(ADDED)))) {
                f.sql("INSERT INTO public.s9a VALUES (103, 'no longer captured')", "INSERT INTO public.s9b VALUES (503, 'still captured')");
                w.awaitEqual(s, List.of(ADDED));
                assertThat(w.compare(OLD).missing()).as("rows of " + OLD + " in the target").containsExactly("103");
                assertThat(published(f)).as("tables of the publication").doesNotContain("s9a").contains("s9b");
                assertThat(StatusReader.read(w.config(List.of(ADDED))).noLongerCaptured()).containsExactly("public.s9a");
            }
        }
    }

    private static List<String> published(CaptureFixture f) throws Exception {
        List<String> out = new java.util.ArrayList<>();
        try (var st = f.source.createStatement();
             var rs = st.executeQuery("SELECT tablename FROM pg_publication_tables WHERE pubname = 'pub_" + f.name + "'")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
