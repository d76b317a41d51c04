package dev.tidemark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The libraries' errors and stack traces go to the detail file, not the console; Tidemark's own lines stay. */
class LibraryDetailTest {
    @TempDir
    Path dir;

    @Test
    void libraryErrorsAndTracesGoToTheFileAndTidemarksLinesStayOnTheConsole() throws Exception {
        Logger debezium = LoggerFactory.getLogger("io.debezium.connector.postgresql.Test");
        Logger kafka = LoggerFactory.getLogger("org.apache.kafka.clients.Test");
        Logger own = LoggerFactory.getLogger("dev.tidemark.cli.Test");
        String console = console(() -> {
            try (LibraryDetail detail = LibraryDetail.route(dir, "orders")) {
                assertThat(detail.note()).as("nothing written yet").isEmpty();
                debezium.error("Producer failure", new IllegalStateException("slot gone"));
                kafka.warn("retrying", new IllegalStateException("broker away"));
                kafka.warn("plain warning");
                own.warn("tidemark's own warning");
                assertThat(detail.note()).isEqualTo(" (library detail: " + dir.resolve("orders.detail.log") + ")");
            }
            debezium.error("after close");
        });
        String file = Files.readString(dir.resolve("orders.detail.log"));
        assertThat(file).contains("ERROR io.debezium.connector.postgresql.Test - Producer failure", "slot gone", "\tat ",
                "WARN org.apache.kafka.clients.Test - retrying").doesNotContain("plain warning", "tidemark's own", "after close");
        assertThat(console).contains("plain warning", "tidemark's own warning", "after close")
                .doesNotContain("Producer failure", "retrying", "\tat ");
    }

    @Test
    void withoutTheStateFolderNothingIsCreated() {
        Path missing = dir.resolve("state");
        try (LibraryDetail detail = LibraryDetail.route(missing, "orders")) {
            LoggerFactory.getLogger("io.debezium.Test").error("early", new IllegalStateException("x"));
            assertThat(detail.note()).isEmpty();
        }
        assertThat(missing).doesNotExist();
    }

    private static String console(Runnable r) {
        PrintStream err = System.err;
        PrintStream out = System.out;
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        PrintStream p = new PrintStream(b, true, StandardCharsets.UTF_8);
        try {
            System.setErr(p);
            System.setOut(p);
            r.run();
        } finally {
            System.setErr(err);
            System.setOut(out);
        }
        return b.toString(StandardCharsets.UTF_8);
    }
}
