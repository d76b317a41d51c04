package dev.tidemark.tests.chaos;

/** The faults the chaos harness injects, each at a random moment while the workload commits. */
enum Fault {
    KILL_SIDECAR("kill -9 of the pipeline (every process), restarted as `run` or as `capture` + `sink`", true),
    KILL_CAPTURE("kill -9 of capture alone", true),
    KILL_SINK("kill -9 of the sink alone", true),
    KILL_BROKER("kill -9 of the Kafka broker, restarted on the same data", true),
    PG_RESTART_FAST("pg_ctl restart -m fast of the source", false),
    PG_RESTART_IMMEDIATE("pg_ctl restart -m immediate of the source (crash recovery)", false),
    TERMINATE_WALSENDER("pg_terminate_backend of the slot's walsender", false),
    LOCK_TARGET("target locked by another writer (SQLite exclusive transaction)", false);

    private final String description;
    private final boolean kill;

    Fault(String description, boolean kill) {
        this.description = description;
        this.kill = kill;
    }

    String description() {
        return description;
    }

    /** Whether the fault is a {@code kill -9} of a process. */
    boolean isKill() {
        return kill;
    }
}
