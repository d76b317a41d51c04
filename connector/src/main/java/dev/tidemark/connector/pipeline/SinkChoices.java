package dev.tidemark.connector.pipeline;

/**
 * What the user chose on the command line for one sink run, beyond the replay point.
 *
 * @param memberId           this member's id in the consumer group (null: claimed from the state directory, see
 *                           {@link MemberSlot})
 * @param acceptRetentionGap start partitions whose unapplied records were deleted by retention at their earliest
 *                           offset instead of stopping ({@code --accept-retention-gap})
 * @param skipUnapplied      let {@code --replay-from} move a partition forward past unapplied records
 *                           ({@code --skip-unapplied})
 */
public record SinkChoices(String memberId, boolean acceptRetentionGap, boolean skipUnapplied) {
    /** No explicit choices: member id from the state directory, nothing is ever skipped. */
    public static final SinkChoices DEFAULT = new SinkChoices(null, false, false);
}
