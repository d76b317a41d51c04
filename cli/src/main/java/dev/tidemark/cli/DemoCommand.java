package dev.tidemark.cli;

import dev.tidemark.compare.InvoicesScenario;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The embedded default: {@code compare} on the built-in {@code invoices} scenario against a throwaway PostgreSQL with
 * logical decoding and a single-node Kafka. CDC (Debezium → Kafka → sink writer) fills {@code cdc.db}, watermark
 * polling fills {@code watermark.db}, both are reconciled with the source by key and row checksum, every difference
 * gets its cause, and {@code report.html} is written next to them. Everything it started is stopped and its temporary
 * folders removed, also on Ctrl-C; the SQLite files and the report stay.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run the embedded demo: compare on the built-in invoices scenario with a throwaway PostgreSQL + Kafka; "
                + "CDC into cdc.db, watermark polling into watermark.db, key+checksum proof of both, report.html.",
                "Exit code: 0 when the CDC target equals the source, 1 when it does not."})
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--kafka", paramLabel = "BOOTSTRAP", description = "use this Kafka instead of starting one")
    String kafka;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "tidemark-demo",
            description = "where cdc.db, watermark.db and report.html are written (default: ${DEFAULT-VALUE})")
    Path out;

    @Override
    public Integer call() throws Exception {
        return CompareCommand.run("demo", new InvoicesScenario(), out, kafka, null,
                "Tidemark demo: the invoices scenario through CDC (PostgreSQL → Debezium → Kafka → SQLite) and through watermark "
                        + "polling (PostgreSQL → SQLite), then a key+checksum proof of both targets");
    }
}
