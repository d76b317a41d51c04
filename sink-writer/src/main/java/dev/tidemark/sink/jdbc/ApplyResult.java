package dev.tidemark.sink.jdbc;

/**
 * What one committed batch did.
 *
 * @param events    events received in the batch
 * @param collapsed events left after collapsing each key to its last event
 * @param upserts   upserts executed
 * @param deletes   deletes executed
 */
public record ApplyResult(int events, int collapsed, int upserts, int deletes) {
}
