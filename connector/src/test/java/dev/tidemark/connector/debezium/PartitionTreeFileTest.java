package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemark.event.TableId;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionTreeFileTest {
    @TempDir
    Path dir;

    @Test
    void theTreesWrittenAreReadBackByRootWithEveryMemberAndNothingBeforeTheFirstWrite() throws Exception {
        Path offsets = dir.resolve("p.offsets");
        assertThat(PartitionTreeFile.read(offsets)).isEmpty();
        TableId m = new TableId("public", "m");
        TableId odd = new TableId("sales", "odd name");
        Map<TableId, List<PartitionedTables.Member>> trees = new LinkedHashMap<>();
        trees.put(m, List.of(new PartitionedTables.Member(10, m, false, 'f', false),
                new PartitionedTables.Member(11, new TableId("public", "m_1"), true, 'f', false)));
        trees.put(odd, List.of(new PartitionedTables.Member(20, odd, false, 'f', false),
                new PartitionedTables.Member(21, new TableId("sales", "odd part"), true, 'f', false)));
        PartitionTreeFile.write(offsets, trees);
        assertThat(PartitionTreeFile.read(offsets)).isEqualTo(trees);
        assertThat(PartitionTreeFile.fileFor(offsets).getFileName().toString()).isEqualTo("p.offsets.partitions");
    }
}
