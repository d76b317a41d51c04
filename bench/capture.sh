#!/usr/bin/env bash
# The capture benchmark (issue 13): one change backlog in a throwaway PostgreSQL (LocalPostgres, fsync off), drained
# by every contender from its own replication slot (all slots created before the backlog, so all decode the same WAL):
#   pg_recvlogical (pgoutput → /dev/null, the ceiling), Debezium's embedded engine with a no-op consumer, Debezium's
#   engine → Kafka (send, await acks), tidemark capture → Kafka, and tidemark run → SQLite / → PostgreSQL end to end
#   (target: a new database on --target-pg, default jdbc:postgresql://127.0.0.1:5432/ as postgres). Kafka: LocalKafka
#   (KRaft, child JVM), 3 partitions.
# Variants: batch (350 × 1,000-row INSERT, 100 × 1,000-row UPDATE, 50 × 1,000-row DELETE transactions at 500,000
# changes; REPLICA IDENTITY FULL) and single (one row per transaction, same 70/20/10 split).
# Round 1 = cold JVM, later rounds warm (same JVM, next slot). Prints a Markdown table per variant.
#   bench/capture.sh                                        # 500k batch + 100k single changes, 2 rounds
#   bench/capture.sh --changes 20000 --single-changes 5000  # quick
#   bench/capture.sh --contenders debezium-kafka,tidemark-capture --variants batch --jvm "-Xmx512m"
# Options: --changes N --single-changes N --variants batch,single --rounds N --contenders a,b,… --partitions N
#          --jvm "OPTS" (contender JVMs) --debezium-schemas true|false (Debezium contenders' JSON, default false)
#          --debezium k=v,… (extra engine properties for the Debezium contenders)
#          --tidemark-kafka k=v,… (extra Kafka client properties of tidemark-capture, as pipeline kafka.properties)
#          --target-pg URL --target-pg-user USER (end-to-end PostgreSQL target) --workdir DIR
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${BENCH_SKIP_BUILD:-}" != "1" ]]; then
  mvn -B -q -DskipTests ${MVN_FLAGS:-} -pl bench -am package >&2
fi
exec java ${BENCH_PARENT_JVM:--Xmx512m} -cp "bench/target/tidemark-bench.jar:bench/target/lib/*" dev.tidemark.bench.CaptureBenchmark "$@"
