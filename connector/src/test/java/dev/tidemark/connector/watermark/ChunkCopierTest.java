package dev.tidemark.connector.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class ChunkCopierTest {

    @Test
    void softDeleteFlags_trueNonZeroOrYes() {
        for (Object deleted : new Object[] {true, 1, 2L, new BigDecimal("0.5"), "true", "T", " y ", "YES", "1"}) {
            assertThat(ChunkCopier.softDeleted(deleted)).as("%s", deleted).isTrue();
        }
        for (Object kept : new Object[] {null, false, 0, 0L, BigDecimal.ZERO, "false", "0", "no", "", "2"}) {
            assertThat(ChunkCopier.softDeleted(kept)).as("%s", kept).isFalse();
        }
    }
}
