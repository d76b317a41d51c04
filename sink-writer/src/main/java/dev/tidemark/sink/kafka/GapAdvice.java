package dev.tidemark.sink.kafka;

import java.util.Collection;

/**
 * The way on after records the target never applied are gone from a topic (retention deleted them, or the stored
 * offset lies past the end of a re-created topic): accept the gap explicitly, then rebuild what it lost. The pipeline
 * that runs the sink gives its own advice (the one-table re-snapshot where the topics carry captured tables);
 * {@link #REPAIR}, for a sink that knows no pipeline, names the repair of the whole target. Pure.
 */
public interface GapAdvice {
    /** The default: accept with {@code tidemark sink}, then {@code tidemark reconcile --repair --apply} (file placeholder). */
    GapAdvice REPAIR = new GapAdvice() {
        @Override
        public String wayOn(Collection<String> topics) {
            return "accept the gap explicitly (`tidemark sink --config <pipeline file> --accept-retention-gap`) and then " + rebuild(topics);
        }

        @Override
        public String rebuild(Collection<String> topics) {
            return "repair the target from the source (`tidemark reconcile --config <pipeline file> --repair --apply`)";
        }
    };

    /** "accept the gap explicitly (`… --accept-retention-gap` …) and then …", for a refusal over {@code topics}. */
    String wayOn(Collection<String> topics);

    /** "… (`the command`)": what rebuilds the target rows an accepted gap on {@code topics} lost. */
    String rebuild(Collection<String> topics);
}
