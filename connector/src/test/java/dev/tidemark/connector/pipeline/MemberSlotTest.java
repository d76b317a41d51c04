package dev.tidemark.connector.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemberSlotTest {
    @TempDir
    Path dir;

    @Test
    void runningMembersGetDistinctIdsAndAReleasedIdIsClaimedAgain() {
        try (MemberSlot first = MemberSlot.claim(dir.resolve("state"), "shop")) {
            String firstId = first.id();
            try (MemberSlot second = MemberSlot.claim(dir.resolve("state"), "shop")) {
                assertThat(firstId).endsWith("-0").matches("[A-Za-z0-9._-]+");
                assertThat(second.id()).isEqualTo(firstId.substring(0, firstId.length() - 1) + "1");
                first.close();
                try (MemberSlot restarted = MemberSlot.claim(dir.resolve("state"), "shop")) {
                    assertThat(restarted.id()).as("a restart takes the released id back").isEqualTo(firstId);
                }
            }
        }
    }

    @Test
    void pipelinesHaveSlotsOfTheirOwn() {
        try (MemberSlot a = MemberSlot.claim(dir, "a"); MemberSlot b = MemberSlot.claim(dir, "b")) {
            assertThat(a.id()).isEqualTo(b.id()).endsWith("-0");
        }
    }
}
